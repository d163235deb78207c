// The real entry point as `npm start` runs it: a child process on an ephemeral port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tokenHash } from './auth/tokens';
import { openPgStore } from './store/pg/pg-store';
import { operatorKey, type Challenge } from './test-support/operator-key';
import { usePgDatabase } from './test-support/pg-database';
import { SERVER_MAIN } from './test-support/compiled-entry';

const children: ChildProcess[] = [];
const root = mkdtempSync(join(tmpdir(), 'switchboard-main-'));
let dirs = 0;
const freshDataDir = () => join(root, `data-${++dirs}`);
const pg = usePgDatabase();
afterAll(() => {
  children.forEach((child) => child.kill('SIGKILL'));
  rmSync(root, { recursive: true, force: true });
});

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: Promise<string>;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, SERVER_MAIN, {
    env: { ...process.env, DEMO: '0', DATA_DIR: freshDataDir(), DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  const output = new Promise<string>((resolve) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (/listening on|switchboard:/.test(text)) resolve(text);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', () => resolve(text));
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output, exit };
}

describe('server entry point', () => {
  it('listens on PORT=0 and serves /health', async () => {
    const { output, child } = start({ PORT: '0' });
    const line = await output;
    const url = /listening on (http:\/\/[^\s"]+)/.exec(line)?.[1];
    expect(url).toBeDefined();
    const res = await fetch(`${url}/health`);
    expect(await res.json()).toMatchObject({ ok: true });
    child.kill('SIGTERM');
  });

  it('refuses a taken PORT with one line naming the variable', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const { output, exit } = start({ PORT: String(port) });
    const text = await output;
    expect(await exit).toBe(1);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toMatch(/switchboard: port \d+ on 127\.0\.0\.1 is taken; set PORT/);
    blocker.close();
  });

  it('refuses a taken MQTT_PORT with one line naming the variable', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const { output, exit } = start({ PORT: '0', MQTT_PORT: String(port) });
    const text = await output;
    expect(await exit).toBe(1);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toMatch(new RegExp(`switchboard: MQTT_PORT ${port} on 127\\.0\\.0\\.1 is taken; set MQTT_PORT`));
    blocker.close();
  });

  it('falls back to a free MQTT port when MQTT_PORT is unset and 1883 is taken, and says where', async () => {
    const { output, child } = start({ PORT: '0' });
    const text = await output;
    // 1883 belongs to the machine's own Mosquitto here; either way the line names the real port.
    expect(text).toMatch(/MQTT for agents on mqtt:\/\/127\.0\.0\.1:\d+/);
    child.kill('SIGTERM');
  });

  it('refuses an unknown LOG_LEVEL in one line', async () => {
    const { output, exit } = start({ PORT: '0', LOG_LEVEL: 'verbose' });
    expect(await exit).toBe(1);
    expect((await output).trim()).toBe(
      'switchboard: LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose".',
    );
  });

  it('writes its start as JSON log lines whose fields name the addresses, whatever LOG_LEVEL says', async () => {
    const { output, child } = start({ PORT: '0', LOG_LEVEL: 'error' });
    const text = await output;
    child.kill('SIGTERM');
    const lines = text
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('Enroll the first facilitator: '))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ level: 'info', module: 'start', url: expect.stringMatching(/^http:/) });
    expect(lines[0]).toMatchObject({ level: 'info', mqttUrl: expect.stringMatching(/^mqtt:/) });
    expect(JSON.stringify(lines)).not.toContain('#token=');
  });

  it('refuses a malformed PORT in one line', async () => {
    const { output, exit } = start({ PORT: 'eighty' });
    expect(await exit).toBe(1);
    expect((await output).trim()).toBe('switchboard: PORT must be a port number from 0 to 65535, got "eighty".');
  });

  it('runs on PostgreSQL when DATABASE_URL is set: health, and the enrollment token lands in the database', async () => {
    const url = await pg.url();
    const { output, child } = start({ PORT: '0', DATABASE_URL: url });
    const text = await output;
    const base = /listening on (http:\/\/[^\s"]+)/.exec(text)?.[1];
    expect(base).toBeDefined();
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ ok: true });
    // The first start's enrollment token was stored in PostgreSQL: it enrolls exactly once there.
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(token).toBeDefined();
    const store = await openPgStore({ url });
    try {
      expect(await store.access.consumeEnrollment(tokenHash(token!), Date.now())).toBe('facilitator');
    } finally {
      await store.close();
    }
    child.kill('SIGTERM');
  });

  it('refuses an unreachable DATABASE_URL in one line naming it', async () => {
    const { output, exit } = start({ PORT: '0', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/switchboard' });
    expect(await exit).toBe(1);
    expect((await output).trim()).toMatch(
      /^switchboard: cannot open the PostgreSQL database postgres:\/\/postgres@127\.0\.0\.1:1\/switchboard \(DATABASE_URL\): [^\n]+$/,
    );
  });
});

describe('first start', () => {
  const ENROLL_LINE =
    /^Enroll the first facilitator: (http:\/\/127\.0\.0\.1:(\d+)\/enroll#token=([A-Za-z0-9_-]{43}))$/gm;

  async function startAndRead(dataDir: string) {
    const server = start({ PORT: '0', DATA_DIR: dataDir });
    const text = await server.output;
    const url = /listening on (http:\/\/[^\s"]+)/.exec(text)?.[1];
    expect(url).toBeDefined();
    return { ...server, text, url: url!, links: [...text.matchAll(ENROLL_LINE)] };
  }

  async function stop(server: { child: ChildProcess; exit: Promise<number | null> }) {
    server.child.kill('SIGTERM');
    await server.exit;
  }

  it('prints one enrollment line until a facilitator enrolls through it, then none', async () => {
    const dataDir = freshDataDir();

    const first = await startAndRead(dataDir);
    expect(first.links).toHaveLength(1);
    expect(first.text.indexOf('Enroll the first facilitator')).toBeLessThan(first.text.indexOf('listening on'));
    expect(first.url).toBe(`http://127.0.0.1:${first.links[0]![2]}`); // PORT=0: the real port
    await stop(first);

    // Still nobody enrolled: the next start prints a fresh link.
    const second = await startAndRead(dataDir);
    expect(second.links).toHaveLength(1);
    expect(second.links[0]![3]).not.toBe(first.links[0]![3]);

    // Enroll through the printed link, over real HTTP with a real key.
    const key = operatorKey();
    const { challenge } = (await (await fetch(`${second.url}/api/auth/challenge`)).json()) as { challenge: Challenge };
    const res = await fetch(`${second.url}/api/auth/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({
        token: second.links[0]![3],
        did: key.did,
        nonce: challenge.nonce,
        signature: key.sign(challenge),
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ did: key.did, role: 'facilitator', name: null });
    expect(res.headers.get('set-cookie')).toMatch(/^sb_session=.*HttpOnly.*SameSite=Strict/);
    await stop(second);

    const third = await startAndRead(dataDir);
    expect(third.links).toHaveLength(0);
    expect(third.text).not.toContain('Enroll');
    await stop(third);
  });
});
