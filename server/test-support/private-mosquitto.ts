// A private Mosquitto 2 for integration tests: its own generated config in a temporary directory,
// a free port on 127.0.0.1, no anonymous access, the dynamic-security plugin with one admin
// client, persistence off. Never the system broker on :1883. `stop()` kills it and removes the
// directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateMosquitto {
  /** `mqtt://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** The dynamic-security admin (may only use `$CONTROL/dynamic-security/#`, and read). */
  readonly admin: { readonly username: string; readonly password: string };
  readonly dir: string;
  /** Everything mosquitto wrote on stdout and stderr, for failure messages. */
  log(): string;
  /** Stops it (SIGTERM) and starts it again on the same port and directory, as an operator would. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface PrivateMosquittoOptions {
  /** Mosquitto's `retain_available` (default true, as a stock broker). */
  readonly retainAvailable?: boolean;
  /** Mosquitto's `set_tcp_nodelay` (default false, as a stock broker); bench/gateway-external.ts compares both. */
  readonly tcpNoDelay?: boolean;
  /** Mosquitto's `max_queued_messages` per client (default 1,000, as a stock broker). */
  readonly maxQueuedMessages?: number;
}

const MOSQUITTO_CANDIDATES = [
  '/usr/sbin/mosquitto',
  '/usr/bin/mosquitto',
  '/usr/local/sbin/mosquitto',
  '/usr/local/bin/mosquitto',
];
const PLUGIN_CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
  '/usr/local/lib/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto/mosquitto_dynamic_security.so',
];

/** Where mosquitto and its dynamic-security plugin are, or what is missing. */
function findMosquitto(): { ok: true; binary: string; plugin: string } | { ok: false; why: string } {
  const binary = process.env.MOSQUITTO_BIN ?? MOSQUITTO_CANDIDATES.find((p) => existsSync(p));
  if (!binary || !existsSync(binary))
    return {
      ok: false,
      why: `mosquitto is not installed (looked in ${MOSQUITTO_CANDIDATES.join(', ')}; set MOSQUITTO_BIN)`,
    };
  const plugin = process.env.MOSQUITTO_DYNSEC_PLUGIN ?? PLUGIN_CANDIDATES.find((p) => existsSync(p));
  if (!plugin || !existsSync(plugin))
    return {
      ok: false,
      why: `the mosquitto dynamic-security plugin is not installed (looked in ${PLUGIN_CANDIDATES.join(', ')}; set MOSQUITTO_DYNSEC_PLUGIN)`,
    };
  return { ok: true, binary, plugin };
}

/**
 * A client entry in the dynamic-security JSON format (Mosquitto 2): PBKDF2-HMAC-SHA512, 64 bytes,
 * salt and hash base64. The same thing `mosquitto_ctrl dynsec init` writes.
 */
function dynsecClient(username: string, password: string, roles: string[]) {
  const salt = randomBytes(12);
  const iterations = 1_000;
  const hash = pbkdf2Sync(password, salt, iterations, 64, 'sha512');
  return {
    username,
    textName: 'Dynsec admin user',
    password: hash.toString('base64'),
    salt: salt.toString('base64'),
    iterations,
    roles: roles.map((rolename) => ({ rolename })),
  };
}

/** The admin role `mosquitto_ctrl dynsec init` creates. */
const ADMIN_ROLE = {
  rolename: 'admin',
  acls: [
    { acltype: 'publishClientSend', topic: '$CONTROL/dynamic-security/#', allow: true },
    { acltype: 'publishClientReceive', topic: '$CONTROL/dynamic-security/#', allow: true },
    { acltype: 'subscribePattern', topic: '$CONTROL/dynamic-security/#', allow: true },
    { acltype: 'publishClientReceive', topic: '$SYS/#', allow: true },
    { acltype: 'subscribePattern', topic: '$SYS/#', allow: true },
    { acltype: 'publishClientReceive', topic: '#', allow: true },
    { acltype: 'subscribePattern', topic: '#', allow: true },
    { acltype: 'unsubscribePattern', topic: '#', allow: true },
  ],
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startPrivateMosquitto(options: PrivateMosquittoOptions = {}): Promise<PrivateMosquitto> {
  // A missing Mosquitto fails the suite, as a missing PostgreSQL does (decisions-server.md §18):
  // a skip would pass a run that never tested the external broker.
  const found = findMosquitto();
  if (!found.ok) throw new Error(`${found.why}. Install Debian's mosquitto package (scripts/test.sh does, as root).`);
  // The port is free when picked and taken by mosquitto a moment later; another process can win
  // that race, so a broker that exits at once is retried on a fresh port.
  let lastLog = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await tryStart(found.binary, found.plugin, await freePort(), options);
    if (started.ok) return started.broker;
    lastLog = started.log;
  }
  throw new Error(`private mosquitto did not start:\n${lastLog}`);
}

async function tryStart(
  binary: string,
  plugin: string,
  port: number,
  options: PrivateMosquittoOptions,
): Promise<{ ok: true; broker: PrivateMosquitto } | { ok: false; log: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-mosquitto-'));
  const admin = { username: 'switchboard-admin', password: randomBytes(18).toString('base64url') };
  const dynsecFile = join(dir, 'dynamic-security.json');
  writeFileSync(
    dynsecFile,
    JSON.stringify(
      {
        clients: [dynsecClient(admin.username, admin.password, ['admin'])],
        groups: [],
        roles: [ADMIN_ROLE],
        defaultACLAccess: { publishClientSend: false, publishClientReceive: true, subscribe: false, unsubscribe: true },
      },
      null,
      2,
    ),
  );
  const conf = [
    // Running as root, mosquitto would switch to the `mosquitto` user, which cannot write here.
    ...(process.getuid?.() === 0 ? ['user root'] : []),
    'per_listener_settings false',
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'log_type notice',
    'log_type information',
    'connection_messages true',
    ...(options.retainAvailable === false ? ['retain_available false'] : []),
    ...(options.tcpNoDelay ? ['set_tcp_nodelay true'] : []),
    ...(options.maxQueuedMessages !== undefined ? [`max_queued_messages ${options.maxQueuedMessages}`] : []),
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    `plugin ${plugin}`,
    `plugin_opt_config_file ${dynsecFile}`,
    '',
  ].join('\n');
  const confFile = join(dir, 'mosquitto.conf');
  writeFileSync(confFile, conf);

  let log = '';
  /** One mosquitto process on this config; `restart()` makes another on the same port and dir. */
  const launch = () => {
    const child: ChildProcess = spawn(binary, ['-c', confFile], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const run = { child, exited: false, exit: Promise.resolve() };
    run.exit = new Promise<void>((resolve) => child.once('exit', () => ((run.exited = true), resolve())));
    child.once('error', (error) => (log += `spawn failed: ${error.message}\n`));
    return run;
  };
  const halt = async (run: ReturnType<typeof launch>) => {
    if (run.exited) return;
    run.child.kill('SIGTERM');
    const killed = await Promise.race([run.exit.then(() => true), pause(5_000).then(() => false)]);
    if (!killed) {
      run.child.kill('SIGKILL');
      await run.exit;
    }
  };
  // Readiness, not a timed assertion: poll until the listener accepts, for at most ~10 s.
  const ready = async (run: ReturnType<typeof launch>) => {
    for (let i = 0; i < 200 && !run.exited; i++) {
      if (await canConnect(port)) return true;
      await pause(50);
    }
    return false;
  };
  let current = launch();

  if (await ready(current)) {
    const broker: PrivateMosquitto = {
      url: `mqtt://127.0.0.1:${port}`,
      port,
      admin,
      dir,
      log: () => log,
      async restart() {
        // The dynamic-security plugin saved its clients to the file: they are there again.
        await halt(current);
        current = launch();
        if (!(await ready(current))) throw new Error(`private mosquitto did not start again on port ${port}:\n${log}`);
      },
      async stop() {
        await halt(current);
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return { ok: true, broker };
  }
  if (!current.exited) {
    current.child.kill('SIGKILL');
    await current.exit;
  }
  rmSync(dir, { recursive: true, force: true });
  return { ok: false, log };
}
