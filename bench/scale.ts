// Scale benchmark (npx tsx bench/scale.ts [--agents N]; `npm run bench:scale`): N agents (default
// 10,000) with distinct credentials made in bulk connect to one Switchboard (the compiled server
// under plain node, SQLite, embedded broker), send a heartbeat every 10 s into 100 rooms, and
// reconnect all at once after the server restarts. Each figure stands beside its floor from the
// same run: bare aedes (no auth, no store) for connects, the idle server for memory, /health while
// the agents idle for /health during the storm. Server CPU and memory are read from /proc; /health
// is timed by a probe in a process of its own. Any refused CONNECT or dead server fails the run.
// Aims (docs/benchmarks.md): 10,000 agents within 1 GB RSS; the storm done in ≤ 10 s with /health
// p99 ≤ 50 ms; connects ≥ 0.5 of bare aedes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fastAgentHash } from '../server/auth/agent-password';
import { generateAgentPassword } from '../server/auth/password';
import { openStore } from '../server/store/open-store';
import { buildLikeStart, SERVER_MAIN } from '../server/test-support/compiled-entry';
import { printBenchResult } from './bench-result';
import { sessionCookie } from '../server/test-support/sessions';
import { connectAll, type LeanClient } from './scale-clients';

const { values: flags } = parseArgs({
  options: {
    agents: { type: 'string', default: '10000' },
    'in-flight': { type: 'string', default: '500' },
    'heartbeat-seconds': { type: 'string', default: '20' },
  },
});
const AGENTS = Number(flags.agents);
/** CONNECTs outstanding at once: what reconnect jitter gives a real fleet. */
const IN_FLIGHT = Number(flags['in-flight']);
/** How long the heartbeat window is measured (each agent beats every 10 s). */
const HEARTBEAT_WINDOW_MS = Number(flags['heartbeat-seconds']) * 1000;
const HEARTBEAT_EVERY_MS = 10_000;
const ROOMS = 100;
const HOST = '127.0.0.1';
const CLK_TCK = 100;
if (!Number.isInteger(AGENTS) || AGENTS < 1 || !Number.isInteger(IN_FLIGHT) || IN_FLIGHT < 1)
  throw new Error('--agents and --in-flight take positive whole numbers');

const agentId = (i: number) => `agent.scale-${i}`;
const roomOf = (i: number) => `scale-${i % ROOMS}`;

/** CPU seconds (user + system) the process used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Resident memory in MB. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Child {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Bytes it wrote so far (stdout and stderr). */
  bytes(): number;
}

/** Spawns node with `args`; resolves once its output matches `ready`. */
function spawnNode(args: readonly string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  let bytes = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${log}`)), 60_000);
    const onData = (chunk: Buffer) => {
      bytes += chunk.byteLength;
      log += chunk.toString();
      if (log.length > 1_000_000) log = log.slice(-100_000);
      if (ready.test(log)) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid!, output: () => log, bytes: () => bytes });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before it was ready:\n${log}`));
    });
  });
}

function stop(c: Child | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (!c || c.child.exitCode !== null || c.child.signalCode !== null) return resolve();
    c.child.once('exit', () => resolve());
    c.child.kill(signal);
  });
}

/** Bare aedes, no authentication and no store: the floor for connects. */
const BARE_AEDES = `
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
const aedes = await Aedes.createBroker();
const server = createServer(aedes.handle);
server.listen(0, '127.0.0.1', () => console.log('BARE_AEDES_PORT=' + server.address().port));
`;

/** Times GET /health one after another until its stdin ends, then prints the latencies (ms). */
const HEALTH_PROBE = `
const url = process.argv[1];
const times = [];
let running = true;
process.stdin.on('end', () => (running = false));
process.stdin.resume();
console.log('PROBE_READY');
while (running) {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error('/health answered ' + res.status);
  times.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 10));
}
console.log('PROBE_RESULT=' + JSON.stringify(times));
`;

async function probeHealth(url: string): Promise<{ finish(): Promise<number[]> }> {
  const probe = await spawnNode(['--input-type=module', '-e', HEALTH_PROBE, `${url}/health`], {}, /PROBE_READY/);
  return {
    finish: () =>
      new Promise((resolve, reject) => {
        probe.child.once('exit', (code) => {
          const line = /PROBE_RESULT=(.*)/.exec(probe.output())?.[1];
          if (code !== 0 || !line) return reject(new Error(`the /health probe failed:\n${probe.output()}`));
          resolve(JSON.parse(line) as number[]);
        });
        probe.child.stdin!.end();
      }),
  };
}

const percentile = (values: readonly number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const allClosed = (clients: readonly LeanClient[]) => Promise.all(clients.map((c) => c.closed));

async function measureConnects(
  pid: number,
  make: Parameters<typeof connectAll>[2],
): Promise<{ clients: LeanClient[]; seconds: number; cpuMsPerConnect: number }> {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const clients = await connectAll(AGENTS, IN_FLIGHT, make);
  const seconds = (performance.now() - t0) / 1000;
  return { clients, seconds, cpuMsPerConnect: ((cpuSeconds(pid) - cpu0) * 1000) / AGENTS };
}

async function main(): Promise<void> {
  const started = performance.now();
  const built = buildLikeStart(['server'], { output: 'inherit' });
  if (built.status !== 0) throw new Error('the server build failed');
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-scale-'));
  let server: Child | undefined;
  let bare: Child | undefined;
  let clients: LeanClient[] = [];
  try {
    // 1. The floor: bare aedes, N connects.
    bare = await spawnNode(['--input-type=module', '-e', BARE_AEDES], {}, /BARE_AEDES_PORT=\d+/);
    const barePort = Number(/BARE_AEDES_PORT=(\d+)/.exec(bare.output())![1]);
    const floor = await measureConnects(bare.pid, (i) => ({ host: HOST, port: barePort, clientId: agentId(i) }));
    const bareRssMb = rssMb(bare.pid);
    floor.clients.forEach((c) => c.end());
    await allClosed(floor.clients);
    await stop(bare);
    console.log(`bare aedes: ${AGENTS} connects in ${floor.seconds.toFixed(2)} s`);

    // 2. N distinct credentials in bulk, and the rooms, in the store the server opens.
    const passwords = Array.from({ length: AGENTS }, generateAgentPassword);
    const store = await openStore({ dataDir, databaseUrl: undefined });
    const t0 = performance.now();
    for (let i = 0; i < AGENTS; i++)
      await store.access.putAgentCredential({
        agentId: agentId(i),
        passwordHash: fastAgentHash(passwords[i]!),
        createdAt: Date.now(),
      });
    const provisionSeconds = (performance.now() - t0) / 1000;
    for (let r = 0; r < ROOMS; r++)
      await store.rooms.ensureRoom({ id: `scale-${r}`, name: `Scale ${r}`, moderation: 'auto' });
    const cookie = await sessionCookie(store, OBSERVER, 'observer');
    await store.close();

    // 3. The idle server's memory.
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    const env = {
      DATA_DIR: dataDir,
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      HOST,
      DEMO: '0',
      LOG_LEVEL: 'warn',
    };
    const startServer = async () => {
      // "listening on" is announced whatever LOG_LEVEL says.
      const s = await spawnNode(SERVER_MAIN, env, /listening on http/);
      await waitFor(async () => (await fetch(`http://${HOST}:${httpPort}/health`).catch(() => null))?.ok === true);
      return s;
    };
    server = await startServer();
    await sleep(3_000);
    const idleRssMb = rssMb(server.pid);
    const url = `http://${HOST}:${httpPort}`;
    const agentConnect = (i: number) => ({
      host: HOST,
      port: mqttPort,
      clientId: `${agentId(i)}/1`,
      username: agentId(i),
      password: passwords[i]!,
    });

    // 4. N agents connect.
    const first = await measureConnects(server.pid, agentConnect);
    clients = first.clients;
    console.log(`server: ${AGENTS} connects in ${first.seconds.toFixed(2)} s`);

    // 5. Heartbeats every 10 s each, spread evenly; /health while the agents idle and beat.
    const beat = (i: number) => {
      const now = Date.now();
      clients[i]?.publish(
        `rooms/${roomOf(i)}/agents/${agentId(i)}/heartbeat`,
        JSON.stringify({
          id: `hb_${i}_${now}`,
          type: 'heartbeat',
          room_id: roomOf(i),
          from: { kind: 'agent', id: agentId(i) },
          ts: Math.floor(now / 1000),
          payload: { ts: Math.floor(now / 1000), interval_ms: HEARTBEAT_EVERY_MS },
        }),
      );
    };
    const beating = heartbeats(AGENTS, beat);
    await sleep(HEARTBEAT_EVERY_MS); // every agent has beaten once: presence is full
    const idleProbe = await probeHealth(url);
    const hbCpu0 = cpuSeconds(server.pid);
    const hbT0 = performance.now();
    const beats0 = beating.sent();
    await sleep(HEARTBEAT_WINDOW_MS);
    const beatsSent = beating.sent() - beats0;
    const hbSeconds = (performance.now() - hbT0) / 1000;
    const hbCpuSeconds = cpuSeconds(server.pid) - hbCpu0;
    const idleHealth = await idleProbe.finish();
    const connectedRssMb = rssMb(server.pid);
    console.log(
      `with ${AGENTS} connected and beating: RSS ${connectedRssMb.toFixed(0)} MB (idle ${idleRssMb.toFixed(0)} MB), ` +
        `/health p99 ${percentile(idleHealth, 99).toFixed(1)} ms (n ${idleHealth.length}), ` +
        `${((hbCpuSeconds / hbSeconds) * 100).toFixed(1)} % of a core for ${(beatsSent / hbSeconds).toFixed(0)} heartbeats/s; ` +
        `the server wrote ${(server.bytes() / 1024).toFixed(0)} KB of log`,
    );
    if (server.bytes() > 64 * 1024) console.log(server.output().slice(-2_000));
    // What the console reads with every agent connected and beating.
    const reads: [string, string][] = [
      ['GET /api/rooms', '/api/rooms'],
      ['GET /api/agent-accounts', '/api/agent-accounts'],
      ['GET /api/rooms/scale-0/health', '/api/rooms/scale-0/health'],
    ];
    const readTimes: [string, number, number][] = [];
    for (const [label, path] of reads) {
      readTimes.push([label, ...(await timedReads(`${url}${path}`, cookie))]);
      console.log(`${label}: median ${readTimes.at(-1)![1].toFixed(1)} ms`);
    }
    beating.stop();

    // 6. The server restarts; every agent reconnects at once.
    const closedAll = allClosed(clients);
    await stop(server);
    await closedAll;
    server = await startServer();
    const stormProbe = await probeHealth(url);
    const storm = await measureConnects(server.pid, (i) => ({ ...agentConnect(i), clientId: `${agentId(i)}/2` }));
    clients = storm.clients;
    const stormHealth = await stormProbe.finish();
    const stormRssMb = rssMb(server.pid);

    const row = (what: string, figure: string, floorFigure: string, ratio: string) =>
      `| ${what} | ${figure} | ${floorFigure} | ${ratio} |`;
    const bareRate = AGENTS / floor.seconds;
    const rate = AGENTS / first.seconds;
    const stormRate = AGENTS / storm.seconds;
    const perAgentKb = ((connectedRssMb - idleRssMb) * 1024) / AGENTS;
    console.log(
      [
        '',
        `agents ${AGENTS}, ${ROOMS} rooms, CONNECTs in flight ${IN_FLIGHT}; credentials made in ${provisionSeconds.toFixed(1)} s`,
        '',
        '| measure | Switchboard | floor | ratio |',
        '| --- | --- | --- | --- |',
        row(
          'connects/s',
          rate.toFixed(0),
          `${bareRate.toFixed(0)} (bare aedes)`,
          `${(rate / bareRate).toFixed(2)} (aim ≥ 0.5)`,
        ),
        row(
          'server CPU per connect (ms)',
          first.cpuMsPerConnect.toFixed(3),
          `${floor.cpuMsPerConnect.toFixed(3)} (bare aedes)`,
          `${(first.cpuMsPerConnect / floor.cpuMsPerConnect).toFixed(1)}×`,
        ),
        row(
          `RSS with ${AGENTS} connected (MB)`,
          connectedRssMb.toFixed(0),
          `${idleRssMb.toFixed(0)} (idle server); bare aedes ${bareRssMb.toFixed(0)}`,
          `${perAgentKb.toFixed(1)} KB per agent (aim: ${AGENTS} within 1024 MB)`,
        ),
        row(
          'heartbeats: server CPU',
          `${((hbCpuSeconds / hbSeconds) * 100).toFixed(1)} % of a core for ${(beatsSent / hbSeconds).toFixed(0)}/s`,
          '–',
          `${((hbCpuSeconds * 1000) / beatsSent).toFixed(3)} ms per heartbeat`,
        ),
        row(
          'reconnect storm (s)',
          storm.seconds.toFixed(2),
          `${(AGENTS / bareRate).toFixed(2)} (bare aedes, same count)`,
          `${stormRate.toFixed(0)} connects/s (aim ≤ 10 s)`,
        ),
        row(
          'server CPU per connect in the storm (ms)',
          storm.cpuMsPerConnect.toFixed(3),
          `${floor.cpuMsPerConnect.toFixed(3)} (bare aedes)`,
          `${(storm.cpuMsPerConnect / floor.cpuMsPerConnect).toFixed(1)}×`,
        ),
        row(
          '/health p99 during the storm (ms)',
          `${percentile(stormHealth, 99).toFixed(1)} (p50 ${percentile(stormHealth, 50).toFixed(1)}, n ${stormHealth.length})`,
          `${percentile(idleHealth, 99).toFixed(1)} (agents connected and beating, n ${idleHealth.length})`,
          'aim ≤ 50 ms',
        ),
        row('RSS after the storm (MB)', stormRssMb.toFixed(0), '–', '–'),
        ...readTimes.map(([label, median, bytes]) =>
          row(
            `${label}, median of ${READS} (ms)`,
            median.toFixed(1),
            `${(bytes / 1024).toFixed(0)} KB answered`,
            'aim < 100 ms',
          ),
        ),
        '',
        `run took ${((performance.now() - started) / 1000).toFixed(0)} s`,
      ].join('\n'),
    );
    printBenchResult('scale', [
      {
        metric: `connects/s, ${AGENTS.toLocaleString('en-US')} agents (aim ≥ 0.5)`,
        value: rate,
        unit: '/s',
        baseline: 'bare aedes',
        baselineValue: bareRate,
      },
      {
        metric: `reconnect storm, ${AGENTS.toLocaleString('en-US')} agents (aim ≤ 10 s)`,
        value: storm.seconds,
        unit: 's',
        baseline: 'bare aedes, same count',
        baselineValue: AGENTS / bareRate,
        note: `/health p99 ${percentile(stormHealth, 99).toFixed(1)} ms during it (aim ≤ 50 ms)`,
      },
      {
        metric: `RSS with ${AGENTS.toLocaleString('en-US')} connected`,
        value: connectedRssMb,
        unit: 'MB',
        baseline: 'idle server',
        baselineValue: idleRssMb,
        note: `${perAgentKb.toFixed(1)} KB per agent`,
      },
    ]);
  } finally {
    clients.forEach((c) => c.end());
    await stop(server, 'SIGKILL');
    await stop(bare, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each agent beats every HEARTBEAT_EVERY_MS, agents spread evenly over the interval. */
function heartbeats(count: number, beat: (i: number) => void): { sent(): number; stop(): void } {
  const TICK_MS = 100;
  const perTick = count / (HEARTBEAT_EVERY_MS / TICK_MS);
  let sent = 0;
  let carry = 0;
  let next = 0;
  const timer = setInterval(() => {
    carry += perTick;
    for (; carry >= 1; carry -= 1) {
      beat(next);
      next = (next + 1) % count;
      sent += 1;
    }
  }, TICK_MS);
  return { sent: () => sent, stop: () => clearInterval(timer) };
}

const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';
const READS = 5;

/** The median time of READS reads of `url` as a signed-in observer, and the answer's size. */
async function timedReads(url: string, cookie: string): Promise<[number, number]> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < READS; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - t0);
    bytes = body.byteLength;
  }
  return [percentile(times, 50), bytes];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('the server did not answer /health within 60 s');
    await sleep(50);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench:scale FAILED:', error);
    process.exit(1);
  },
);
