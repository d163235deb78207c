// DNS rebinding: a page on a name the attacker controls, re-pointed at 127.0.0.1, talks to the
// console as its "own" origin. The server answers only Hosts it is known by (loopback names, IP
// literals, ALLOWED_HOSTS), on every route and on the /mqtt WebSocket upgrade; anything else is
// 421 MISDIRECTED_REQUEST (decisions-server.md §43). A real server over real sockets.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ConfigError, loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { manualClock } from '../test-support/manual-clock';
import { sessionCookie } from '../test-support/sessions';

const running: RunningSwitchboard[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const sb of running.splice(0)) await sb.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-host-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'web'));
  writeFileSync(join(dir, 'web', 'index.html'), '<!doctype html><title>Switchboard</title>');
  const sb = await startSwitchboard(
    loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_PORT: '0',
      DATA_DIR: dir,
      DEMO: '0',
      STATIC_DIR: join(dir, 'web'),
      ...env,
    }),
    { clock: manualClock(Date.parse('2026-05-03T10:00:00Z')) },
  );
  running.push(sb);
  return sb;
}

/** One request with the Host header (and request target) given verbatim. */
function get(sb: RunningSwitchboard, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: sb.http.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether the /mqtt upgrade opens (101) or the status it was refused with. */
function upgrade(sb: RunningSwitchboard, host: string, cookie: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${sb.http.port}/mqtt`, 'mqtt', {
      headers: { host, origin: `http://${host}`, cookie },
    });
    ws.once('open', () => (ws.close(), resolve(101)));
    ws.once('unexpected-response', (_req, res) => (ws.terminate(), resolve(res.statusCode ?? 0)));
    ws.once('error', () => resolve(0));
  });
}

describe('the Host a request names', () => {
  it('is refused with 421 MISDIRECTED_REQUEST unless it is a loopback name, an IP literal or allowed', async () => {
    const sb = await start();
    const port = sb.http.port;
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `api.localhost:${port}`,
    ]) {
      for (const path of ['/api/auth/challenge', '/', '/events?timeout=0', '/oap/manifest']) {
        const res = await get(sb, host, path);
        expect(res.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(res.body), `${host} ${path}`).toMatchObject({ code: 'MISDIRECTED_REQUEST' });
      }
    }
    // An absolute request target does not get round the Host header.
    expect((await get(sb, `evil.example:${port}`, `http://127.0.0.1:${port}/api/auth/challenge`)).status).toBe(421);
    for (const host of [
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      '127.0.0.1',
      `10.1.2.3:${port}`,
    ]) {
      expect((await get(sb, host, '/api/auth/challenge')).status, host).toBe(200);
    }
    // A load balancer's probe names the instance however it likes.
    expect((await get(sb, `evil.example:${port}`, '/health')).status).toBe(200);
    expect((await get(sb, `evil.example:${port}`, '/ready')).status).toBe(200);
  });

  it('ALLOWED_HOSTS adds the names a deployment is reached by', async () => {
    const sb = await start({ ALLOWED_HOSTS: 'console.example.com, switchboard.internal' });
    expect((await get(sb, 'console.example.com', '/api/auth/challenge')).status).toBe(200);
    expect((await get(sb, `switchboard.internal:${sb.http.port}`, '/')).status).toBe(200);
    expect((await get(sb, 'evil.example', '/api/auth/challenge')).status).toBe(421);
    expect((await get(sb, `localhost:${sb.http.port}`, '/api/auth/challenge')).status).toBe(200);
  });

  it('refuses the /mqtt upgrade under a foreign Host with 421, even with a session cookie and a matching Origin', async () => {
    const sb = await start();
    const cookie = await sessionCookie(
      sb.store,
      'did:key:z6MkHostCheckOperator',
      'facilitator',
      Date.parse('2026-05-03T10:00:00Z'),
    );
    expect(await upgrade(sb, `evil.example:${sb.http.port}`, cookie)).toBe(421);
    expect(await upgrade(sb, `evil.example:${sb.http.port}`, '')).toBe(421);
    // Under an allowed Host, a missing session is still 401.
    expect(await upgrade(sb, `127.0.0.1:${sb.http.port}`, '')).toBe(401);
    expect(await upgrade(sb, `127.0.0.1:${sb.http.port}`, cookie)).toBe(101);
  });

  it('ALLOWED_HOSTS takes host names (a port is ignored), or * for any; anything else is a ConfigError', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'Console.Example.com:443,b.example' }).allowedHosts).toEqual([
      'console.example.com',
      'b.example',
    ]);
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).toEqual(['*']);
    expect(loadConfig({}).allowedHosts).toEqual([]);
    for (const bad of ['https://console.example.com', 'a b', 'x/y', 'a,,b']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/^ALLOWED_HOSTS must be/);
    }
  });
});
