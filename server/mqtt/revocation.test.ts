// Revocation ends live MQTT connections (docs/decisions-server.md §39): a console's socket after
// logout, demotion or expiry, an agent's connection after `agents remove` or `agents add --rotate`
// run through the CLI against the same data directory. Each also shows that a publish made in
// between, before the connection is closed, reaches nobody: the broker checks again on publish.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { runCli } from '../cli/run-cli';
import { loadConfig } from '../config';
import { SESSION_TTL_MS } from '../http/session';
import { startSwitchboard, type RunningSwitchboard } from '../runtime';
import { manualClock } from '../test-support/manual-clock';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';

const REVALIDATE_MS = 50;
/** Liveness bound for a sweep every REVALIDATE_MS to close a connection. */
const CLOSED_WITHIN_MS = 10_000;
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';

let sb: RunningSwitchboard;
let dataDir: string;
const clock = manualClock(Date.UTC(2026, 10, 22, 12));
const routed: string[] = [];
let seq = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-revocation-'));
  sb = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', MQTT_REVALIDATE_MS: String(REVALIDATE_MS) }), { clock });
  await sb.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  sb.broker.onMessage('#', (m) => void routed.push(`${m.topic} ${new TextDecoder().decode(m.payload)}`));
});

afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<string> {
  let out = '';
  const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (out += t), env: { DATA_DIR: dataDir }, cwd: dataDir, now: () => clock.now() });
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
  const page = await sb.store.listMessages({ roomId: 'ops', limit: 10_000 });
  return page.messages.filter((m) => new TextDecoder().decode(m.payload).includes(marker)).length;
}

const envelope = (type: string, payload: object) =>
  JSON.stringify({ id: `m_${++seq}`, type, room_id: 'ops', from: { kind: 'user', id: FACILITATOR }, ts: Math.floor(clock.now() / 1000), payload });
const say = (text: string) => envelope('say', { text });
const bigGrant = (marker: string) =>
  envelope('mic_grant', { task_id: marker, agent_id: 'agent.any', max_messages: 1000, allowed_message_types: ['progress'], expires_at: Math.floor(clock.now() / 1000) + 3600 });

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
    c.client.publishAsync(topic, payload, { qos: 1 }).then(() => 'acknowledged', () => 'refused'),
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
    expect(await sb.store.getGrant('ops', 'agent.any', 'after-demotion')).toBeUndefined();
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
    await sb.store.putAgentCredential({ agentId, passwordHash: await hashPassword('pw'), createdAt: clock.now() });
    return { agentId, c: await connectClient(sb.mqttUrl, { username: agentId, password: 'pw', clientId: agentId }) };
  }
  const heartbeat = (agentId: string, marker: string) =>
    JSON.stringify({ id: `hb_${++seq}`, type: 'heartbeat', room_id: 'ops', from: { kind: 'agent', id: agentId }, ts: Math.floor(clock.now() / 1000), payload: { ts: Math.floor(clock.now() / 1000), description: marker } });

  it.each([
    ['agents remove', (agentId: string) => cli('agents', 'remove', agentId)],
    ['agents add --rotate', (agentId: string) => cli('agents', 'add', agentId, '--rotate')],
  ])('after `%s` (the CLI, same data directory), its next publish is not delivered and the connection is closed', async (_label, revoke) => {
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
  });

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
