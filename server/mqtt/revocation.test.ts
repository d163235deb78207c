// Revocation ends live MQTT connections (docs/decisions-server.md §39, §62): a console's socket
// after logout, demotion or expiry, an agent's connection after `agents remove`, `add --rotate`,
// `suspend` or `disconnect` run through the CLI against the same data directory. Each also shows that a publish made in
// between, before the connection is closed, reaches nobody: the broker checks again on publish.
// With the sweep out of reach, the store's signal alone closes what the CLI revoked, on SQLite
// (another connection's commit) and on PostgreSQL (NOTIFY).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { runCli } from '../cli/run-cli';
import { loadConfig } from '../config';
import { SESSION_TTL_MS } from '../http/session';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import type { BrokerIdentity } from './acl';
import { EmbeddedBroker } from './embedded-broker';
import { manualClock } from '../test-support/manual-clock';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { usePgDatabase } from '../test-support/pg-database';
import { sessionCookie } from '../test-support/sessions';

const REVALIDATE_MS = 50;
/** Liveness bound for a sweep every REVALIDATE_MS to close a connection. */
const CLOSED_WITHIN_MS = 10_000;
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';

const pg = usePgDatabase();

let sb: RunningSwitchboard;
let dataDir: string;
const clock = manualClock(Date.UTC(2026, 10, 22, 12));
const routed: string[] = [];
let seq = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-revocation-'));
  sb = await startSwitchboard(
    loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', MQTT_REVALIDATE_MS: String(REVALIDATE_MS) }),
    { clock },
  );
  await sb.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  sb.broker.onMessage('#', (m) => void routed.push(`${m.topic} ${new TextDecoder().decode(m.payload)}`));
});

afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<string> {
  let out = '';
  const code = await runCli(args, {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env: { DATA_DIR: dataDir },
    cwd: dataDir,
    now: () => clock.now(),
  });
  expect(code, out).toBe(0);
  return out;
}

const closed = (c: TestClient) =>
  new Promise<'closed'>((resolve, reject) => {
    if (!c.client.connected) return resolve('closed');
    const timer = setTimeout(() => reject(new Error(`still connected after ${CLOSED_WITHIN_MS} ms`)), CLOSED_WITHIN_MS);
    c.client.once('close', () => (clearTimeout(timer), resolve('closed')));
  });

/** Whatever was routed, up to a sentinel the server publishes after the attempt. */
async function routedBefore(marker: string): Promise<string[]> {
  const sentinel = `sentinel-${marker}`;
  await sb.broker.publish('rooms/ops/public', new TextEncoder().encode(JSON.stringify({ sentinel })));
  expect(routed.some((r) => r.includes(sentinel))).toBe(true);
  return routed.filter((r) => r.includes(marker) && !r.includes(sentinel));
}

async function stored(marker: string): Promise<number> {
  const page = await sb.store.rooms.listMessages({ roomId: 'ops', limit: 10_000 });
  return page.messages.filter((m) => new TextDecoder().decode(m.payload).includes(marker)).length;
}

const envelope = (type: string, payload: object) =>
  JSON.stringify({
    id: `m_${++seq}`,
    type,
    room_id: 'ops',
    from: { kind: 'user', id: FACILITATOR },
    ts: Math.floor(clock.now() / 1000),
    payload,
  });
const say = (text: string) => envelope('say', { text });
const bigGrant = (marker: string) =>
  envelope('mic_grant', {
    task_id: marker,
    agent_id: 'agent.any',
    max_messages: 1000,
    allowed_message_types: ['progress'],
    expires_at: Math.floor(clock.now() / 1000) + 3600,
  });

async function console_(cookie: string): Promise<TestClient> {
  return connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, { wsOptions: { headers: { cookie, origin: sb.url } } });
}

/**
 * A publish that must not get through: refused with an MQTT 5 PUBACK, or left unacknowledged
 * when the broker closes the connection (mqtt.js keeps an unacknowledged QoS 1 publish for a
 * reconnect rather than failing it).
 */
async function refusedPublish(c: TestClient, topic: string, payload: string): Promise<void> {
  const outcome = await Promise.race([
    c.client.publishAsync(topic, payload, { qos: 1 }).then(
      () => 'acknowledged',
      () => 'refused',
    ),
    closed(c),
  ]);
  expect(outcome).not.toBe('acknowledged');
}

describe('a console socket', () => {
  it('is closed at logout, and a publish over it in between reaches nobody', async () => {
    const cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator', clock.now());
    const c = await console_(cookie);
    await c.client.publishAsync('rooms/ops/public', say('before-logout'), { qos: 1 });
    expect(await stored('before-logout')).toBe(1);
    const out = await fetch(`${sb.url}/api/auth/logout`, { method: 'POST', headers: { cookie, origin: sb.url } });
    expect(out.status).toBe(204);
    await refusedPublish(c, 'rooms/ops/public', say('after-logout'));
    await closed(c);
    expect(await routedBefore('after-logout')).toEqual([]);
    expect(await stored('after-logout')).toBe(0);
  });

  it('is closed when the operator is demoted to observer; a facilitator-only publish in between reaches nobody', async () => {
    const cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator', clock.now());
    const c = await console_(cookie);
    await cli('operators', 'add', FACILITATOR, '--role', 'observer');
    await refusedPublish(c, 'rooms/ops/control', bigGrant('after-demotion'));
    await closed(c);
    expect(await routedBefore('after-demotion')).toEqual([]);
    expect(await sb.store.rooms.getGrant('ops', 'agent.any', 'after-demotion')).toBeUndefined();
    await cli('operators', 'add', FACILITATOR, '--role', 'facilitator');
  });

  it('is closed when its session expires', async () => {
    const cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator', clock.now());
    const c = await console_(cookie);
    clock.advance(SESSION_TTL_MS + 1);
    await closed(c);
  });
});

describe('an agent connection', () => {
  let agents = 0;
  async function agent(): Promise<{ agentId: string; c: TestClient }> {
    const agentId = `agent.revoked-${++agents}`;
    await sb.store.access.putAgentCredential({
      agentId,
      passwordHash: await hashPassword('pw'),
      createdAt: clock.now(),
    });
    return { agentId, c: await connectClient(sb.mqttUrl, { username: agentId, password: 'pw', clientId: agentId }) };
  }
  const heartbeat = (agentId: string, marker: string) =>
    JSON.stringify({
      id: `hb_${++seq}`,
      type: 'heartbeat',
      room_id: 'ops',
      from: { kind: 'agent', id: agentId },
      ts: Math.floor(clock.now() / 1000),
      payload: { ts: Math.floor(clock.now() / 1000), description: marker },
    });

  it.each([
    ['agents remove', (agentId: string) => cli('agents', 'remove', agentId)],
    ['agents add --rotate', (agentId: string) => cli('agents', 'add', agentId, '--rotate')],
    ['agents suspend', (agentId: string) => cli('agents', 'suspend', agentId, '--reason', 'test')],
    ['agents disconnect', (agentId: string) => cli('agents', 'disconnect', agentId)],
  ])(
    'after `%s` (the CLI, same data directory), its next publish is not delivered and the connection is closed',
    async (_label, revoke) => {
      const { agentId, c } = await agent();
      const topic = `rooms/ops/agents/${agentId}/heartbeat`;
      await c.client.publishAsync(topic, heartbeat(agentId, 'before-revocation'), { qos: 1 });
      await revoke(agentId);
      // An agent's publish relies on a check at most REVALIDATE_MS old (by the server's clock).
      clock.advance(REVALIDATE_MS);
      const marker = `after-revocation-${agentId}`;
      await refusedPublish(c, topic, heartbeat(agentId, marker));
      await closed(c);
      expect(await routedBefore(marker)).toEqual([]);
    },
  );

  it.each([
    ['agents remove', (agentId: string) => cli('agents', 'remove', agentId)],
    ['agents add --rotate', (agentId: string) => cli('agents', 'add', agentId, '--rotate')],
  ])('after `%s`, an idle connection is closed without publishing', async (_label, revoke) => {
    const { agentId, c } = await agent();
    await revoke(agentId);
    await closed(c);
  });

  it('stays open while its credential stands', async () => {
    const { agentId, c } = await agent();
    clock.advance(REVALIDATE_MS);
    await c.client.publishAsync(`rooms/ops/agents/${agentId}/heartbeat`, heartbeat(agentId, 'still-valid'), { qos: 1 });
    expect(c.client.connected).toBe(true);
    await c.client.endAsync();
  });
});

describe('logout without waiting for the sweep', () => {
  it('closes the console socket at once: the server checks open sockets when a session ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-revocation-'));
    const other = await startSwitchboard(
      loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dir, DEMO: '0', MQTT_REVALIDATE_MS: '600000' }),
    );
    try {
      const cookie = await sessionCookie(other.store, FACILITATOR, 'facilitator');
      const c = await connectClient(`${other.url.replace('http', 'ws')}/mqtt`, {
        wsOptions: { headers: { cookie, origin: other.url } },
      });
      const gone = closed(c);
      const out = await fetch(`${other.url}/api/auth/logout`, {
        method: 'POST',
        headers: { cookie, origin: other.url },
      });
      expect(out.status).toBe(204);
      await gone;
    } finally {
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the check on publish, before any sweep', () => {
  // A sweep an hour apart never runs here: only the check on publish can refuse.
  const HOUR = 3_600_000;

  it("refuses an agent's publish once its check fails and the last check is older than the interval", async () => {
    const brokerClock = manualClock();
    let valid = true;
    const delivered: string[] = [];
    const broker = await EmbeddedBroker.create({
      verifyAgent: async () => async () => valid,
      revalidateEveryMs: HOUR,
      now: () => brokerClock.now(),
      beforeRoute: (m) => void delivered.push(new TextDecoder().decode(m.payload)),
    });
    const { port } = await broker.listenTcp('127.0.0.1', 0);
    try {
      const c = await connectClient(`mqtt://127.0.0.1:${port}`, {
        username: 'agent.a',
        password: 'pw',
        clientId: 'agent.a',
      });
      valid = false;
      // Within the interval the agent's last check stands (the hot path reads no store) …
      await c.client.publishAsync('rooms/r1/agents/agent.a/work', 'within-interval', { qos: 1 });
      // … and once it is older, the publish is checked again and refused.
      brokerClock.advance(HOUR);
      await refusedPublish(c, 'rooms/r1/agents/agent.a/work', 'after-interval');
      await closed(c);
      expect(delivered).toEqual(['within-interval']);
    } finally {
      await broker.close();
    }
  });

  it('checks every publish of an operator: a role changed a moment ago refuses the next one', async () => {
    let identity: BrokerIdentity = { kind: 'operator', did: FACILITATOR, role: 'facilitator' };
    const delivered: string[] = [];
    const broker = await EmbeddedBroker.create({
      verifyAgent: async () => false,
      revalidateEveryMs: HOUR,
      beforeRoute: (m) => void delivered.push(new TextDecoder().decode(m.payload)),
    });
    const http = createServer();
    broker.attachWebSocket(http, async () => identity);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const c = await connectClient(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/mqtt`);
      const sayIn = (text: string) =>
        JSON.stringify({
          id: `m_${++seq}`,
          type: 'say',
          room_id: 'r1',
          from: { kind: 'user', id: FACILITATOR },
          ts: 1,
          payload: { text },
        });
      await c.client.publishAsync('rooms/r1/public', sayIn('as-facilitator'), { qos: 1 });
      identity = { ...identity, role: 'observer' };
      await refusedPublish(c, 'rooms/r1/public', sayIn('as-observer'));
      await closed(c);
      expect(delivered.map((d) => JSON.parse(d).payload.text)).toEqual(['as-facilitator']);
    } finally {
      await broker.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});

describe('a revocation through the CLI without waiting for the sweep', () => {
  // The sweep runs every 600 s (the largest MQTT_REVALIDATE_MS) and the clock stands still: only
  // the store's signal that another process changed it can close these connections.
  const engines: [string, () => Promise<Record<string, string>>][] = [
    ['SQLite', async () => ({})],
    ['PostgreSQL', async () => ({ DATABASE_URL: await pg.url() })],
  ];

  describe.each(engines)('on %s', (_engine, engineEnv) => {
    let other: RunningSwitchboard;
    let dir: string;
    let env: Record<string, string>;
    const seen: string[] = [];
    const still = manualClock(Date.UTC(2026, 10, 22, 12));

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'switchboard-revocation-'));
      env = { DATA_DIR: dir, ...(await engineEnv()) };
      other = await startSwitchboard(
        loadConfig({ PORT: '0', MQTT_PORT: '0', DEMO: '0', MQTT_REVALIDATE_MS: '600000', ...env }),
        { clock: still },
      );
      await other.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
      other.broker.onMessage('#', (m) => void seen.push(`${m.topic} ${new TextDecoder().decode(m.payload)}`));
    });

    afterAll(async () => {
      await other?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    async function cliHere(...args: string[]): Promise<void> {
      let out = '';
      const code = await runCli(args, {
        stdout: (t) => (out += t),
        stderr: (t) => (out += t),
        env,
        cwd: dir,
        now: () => still.now(),
      });
      expect(code, out).toBe(0);
    }

    async function seenBefore(marker: string): Promise<string[]> {
      const sentinel = `sentinel-${marker}`;
      await other.broker.publish('rooms/ops/public', new TextEncoder().encode(JSON.stringify({ sentinel })));
      expect(seen.some((r) => r.includes(sentinel))).toBe(true);
      return seen.filter((r) => r.includes(marker) && !r.includes(sentinel));
    }

    let agents = 0;
    it.each([
      ['agents remove', (agentId: string) => cliHere('agents', 'remove', agentId)],
      ['agents add --rotate', (agentId: string) => cliHere('agents', 'add', agentId, '--rotate')],
      ['agents suspend', (agentId: string) => cliHere('agents', 'suspend', agentId, '--reason', 'test')],
      ['agents disconnect', (agentId: string) => cliHere('agents', 'disconnect', agentId)],
    ])("`%s` closes the agent's connection at once, and its next publish is not delivered", async (_label, revoke) => {
      const agentId = `agent.signalled-${++agents}`;
      await other.store.access.putAgentCredential({
        agentId,
        passwordHash: await hashPassword('pw'),
        createdAt: still.now(),
      });
      const c = await connectClient(other.mqttUrl, { username: agentId, password: 'pw', clientId: agentId });
      const topic = `rooms/ops/agents/${agentId}/heartbeat`;
      const beat = (marker: string) =>
        JSON.stringify({
          id: `hb_${++seq}`,
          type: 'heartbeat',
          room_id: 'ops',
          from: { kind: 'agent', id: agentId },
          ts: Math.floor(still.now() / 1000),
          payload: { ts: Math.floor(still.now() / 1000), description: marker },
        });
      await c.client.publishAsync(topic, beat(`before-${agentId}`), { qos: 1 });
      await revoke(agentId);
      await closed(c);
      const marker = `after-${agentId}`;
      await refusedPublish(c, topic, beat(marker));
      expect(await seenBefore(marker)).toEqual([]);
    });

    it("`operators add --role observer` closes a facilitator's console at once", async () => {
      const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
      const cookie = await sessionCookie(other.store, did, 'facilitator', still.now());
      const c = await connectClient(`${other.url.replace('http', 'ws')}/mqtt`, {
        wsOptions: { headers: { cookie, origin: other.url } },
      });
      await cliHere('operators', 'add', did, '--role', 'observer');
      await closed(c);
    });
  });
});
