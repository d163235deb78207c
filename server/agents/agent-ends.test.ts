// Nothing of an agent outlives its removal or suspension (decisions-server.md §72), through the
// real server (embedded broker, SQLite, the gateway) and real MQTT clients: removal ends its
// grants with a revoke the agent reads; the agent suspended by the CLI reads its own revoke before
// its connection closes; the will of a revoked client reaches nobody. The sweep is out of reach
// (MQTT_REVALIDATE_MS of ten minutes, a clock that never moves): what closes a connection here is
// the action itself or the store's signal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuedCredential } from '@shared/contract/agents';
import { runCli } from '../cli/run-cli';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { manualClock } from '../test-support/manual-clock';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';

let sb: RunningSwitchboard;
let dataDir: string;
let facilitator: string;
const clock = manualClock(Date.UTC(2026, 10, 22, 12));
const routed: string[] = [];
const open: TestClient[] = [];
let seq = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-agent-ends-'));
  sb = await startSwitchboard(
    loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', MQTT_REVALIDATE_MS: '600000' }),
    { clock },
  );
  await sb.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  sb.broker.onMessage('#', (m) => void routed.push(`${m.topic} ${new TextDecoder().decode(m.payload)}`));
  facilitator = await sessionCookie(sb.store, FACILITATOR, 'facilitator', clock.now());
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.client.endAsync(true)));
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sb.url}/api/agent-accounts${path}`, {
    method,
    headers: {
      cookie: facilitator,
      origin: sb.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function create(agentId: string): Promise<string> {
  const res = await api('POST', '', { agentId });
  expect(res.status).toBe(201);
  return IssuedCredential.parse(await res.json()).password;
}

async function cli(...args: string[]): Promise<void> {
  let out = '';
  const code = await runCli(args, {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env: { DATA_DIR: dataDir },
    cwd: dataDir,
    now: () => clock.now(),
  });
  expect(code, out).toBe(0);
}

/** Until `check` holds: liveness only, bounded by the test's timeout. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

const envelope = (type: string, from: { kind: string; id: string }, payload: object) =>
  JSON.stringify({ id: `m_${++seq}`, type, room_id: 'ops', from, ts: Math.floor(clock.now() / 1000), payload });

async function grant(agentId: string, taskId: string): Promise<void> {
  const c = await connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, {
    wsOptions: { headers: { cookie: facilitator, origin: sb.url } },
  });
  const now = Math.floor(clock.now() / 1000);
  await c.client.publishAsync(
    'rooms/ops/control',
    envelope(
      'mic_grant',
      { kind: 'user', id: FACILITATOR },
      {
        task_id: taskId,
        agent_id: agentId,
        max_messages: 5,
        allowed_message_types: ['progress'],
        expires_at: now + 3600,
      },
    ),
    { qos: 1 },
  );
  await c.client.endAsync(true);
  await eventually(async () => (await sb.store.rooms.getGrant('ops', agentId, taskId)) !== undefined);
}

/**
 * An agent subscribed to the room's control topic, recording what it read and whether its
 * connection was still open then; with a will when given.
 */
async function agent(agentId: string, password: string, will?: { topic: string; payload: string }) {
  const c = await connectClient(sb.mqttUrl, {
    username: agentId,
    password,
    clientId: `${agentId}/1`,
    ...(will ? { will: { ...will, qos: 1, retain: false } } : {}),
  });
  open.push(c);
  const readWhileOpen: string[] = [];
  c.client.on('message', (topic, payload) => {
    if (topic === 'rooms/ops/control') readWhileOpen.push(payload.toString());
  });
  await c.client.subscribeAsync('rooms/ops/control', { qos: 1 });
  const closed = new Promise<void>((resolve) => c.client.once('close', () => resolve()));
  return { c, readWhileOpen, closed };
}

/** Whatever was routed with `marker`, up to a sentinel the server publishes afterwards. */
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

let witnesses = 0;
/**
 * A heartbeat recorded after any will already on its way (recording is in order): once its PUBACK
 * is back, a will that was going to be recorded and routed has been.
 */
async function recordedAfterWills(): Promise<void> {
  const agentId = `agent.witness-${++witnesses}`;
  const { c } = await agent(agentId, await create(agentId));
  const beat = envelope('heartbeat', { kind: 'agent', id: agentId }, { ts: Math.floor(clock.now() / 1000) });
  await c.client.publishAsync(`rooms/ops/agents/${agentId}/heartbeat`, beat, { qos: 1 });
}

const revokeOf = (agentId: string, reason: string) => (payload: string) => {
  const m = JSON.parse(payload) as { type: string; payload: { agent_id?: string; reason?: string } };
  return m.type === 'mic_revoke' && m.payload.agent_id === agentId && m.payload.reason === reason;
};

describe('removal', () => {
  it('ends the agent’s grants with a revoke it reads before its connection closes', async () => {
    const password = await create('agent.gone');
    const { readWhileOpen, closed } = await agent('agent.gone', password);
    await grant('agent.gone', 'task-g');
    expect((await api('DELETE', '/agent.gone')).status).toBe(200);
    await closed;
    expect(readWhileOpen.some(revokeOf('agent.gone', 'agent_removed'))).toBe(true);
    expect((await sb.store.rooms.getGrant('ops', 'agent.gone', 'task-g'))?.endedAt).not.toBeNull();
    const roomAudit = await sb.store.access.listAudit({ roomId: 'ops', limit: 5 });
    expect(roomAudit[0]).toMatchObject({
      action: 'agent.remove',
      actorDid: FACILITATOR,
      details: { agentId: 'agent.gone', grantsEnded: ['task-g'] },
    });
  });

  it('by the CLI ends the connected agent’s grants before its connection closes', async () => {
    const password = await create('agent.gone-cli');
    const { readWhileOpen, closed } = await agent('agent.gone-cli', password);
    await grant('agent.gone-cli', 'task-gc');
    await cli('agents', 'remove', 'agent.gone-cli');
    await closed;
    expect(readWhileOpen.some(revokeOf('agent.gone-cli', 'agent_removed'))).toBe(true);
    expect((await sb.store.rooms.getGrant('ops', 'agent.gone-cli', 'task-gc'))?.endedAt).not.toBeNull();
  });

  it('drops the removed agent’s will: its candidate reaches neither public nor the history', async () => {
    const password = await create('agent.will');
    await grant('agent.will', 'task-w');
    const marker = 'will-of-a-removed-agent';
    const { closed } = await agent('agent.will', password, {
      topic: 'rooms/ops/public_candidates',
      payload: envelope(
        'result',
        { kind: 'agent', id: 'agent.will' },
        { task_id: 'task-w', message_type: 'progress', content: { text: marker } },
      ),
    });
    expect((await api('DELETE', '/agent.will')).status).toBe(200);
    await closed;
    await recordedAfterWills();
    expect(await routedBefore(marker)).toEqual([]);
    expect(await stored(marker)).toBe(0);
  });
});

describe('suspension', () => {
  it('by the CLI: the agent reads its own revoke before its connection closes', async () => {
    const password = await create('agent.cli-sus');
    const { readWhileOpen, closed } = await agent('agent.cli-sus', password);
    await grant('agent.cli-sus', 'task-cs');
    await cli('agents', 'suspend', 'agent.cli-sus', '--reason', 'off-topic');
    await closed;
    expect(readWhileOpen.some(revokeOf('agent.cli-sus', 'agent_suspended: off-topic'))).toBe(true);
  });

  it('drops the suspended agent’s heartbeat will: it never marks the agent online', async () => {
    const password = await create('agent.hb');
    const marker = 'will-of-a-suspended-agent';
    const beat = envelope(
      'heartbeat',
      { kind: 'agent', id: 'agent.hb' },
      { ts: Math.floor(clock.now() / 1000), description: marker },
    );
    const { closed } = await agent('agent.hb', password, {
      topic: 'rooms/ops/agents/agent.hb/heartbeat',
      payload: beat,
    });
    expect((await api('POST', '/agent.hb/suspend', { reason: 'quiet please' })).status).toBe(200);
    await closed;
    await recordedAfterWills();
    expect(await routedBefore(marker)).toEqual([]);
    expect(await stored(marker)).toBe(0);
  });

  it('drops the will of a connection that ends by itself after a suspension no sweep has seen yet', async () => {
    const password = await create('agent.drop');
    const marker = 'will-after-an-unseen-suspension';
    const beat = envelope(
      'heartbeat',
      { kind: 'agent', id: 'agent.drop' },
      { ts: Math.floor(clock.now() / 1000), description: marker },
    );
    const { c, closed } = await agent('agent.drop', password, {
      topic: 'rooms/ops/agents/agent.drop/heartbeat',
      payload: beat,
    });
    // Written by this process's own store: no signal, no sweep; only the will's own check can refuse it.
    await sb.store.access.setAgentSuspension('agent.drop', { at: clock.now(), by: 'cli', reason: 'test' });
    c.client.stream.destroy();
    await closed;
    // The server saw the connection end (its will went to the check then) before the sentinel.
    await eventually(async () => {
      const res = await api('GET', '/agent.drop');
      return ((await res.json()) as { agent: { connections: number } }).agent.connections === 0;
    });
    await recordedAfterWills();
    expect(await routedBefore(marker)).toEqual([]);
    expect(await stored(marker)).toBe(0);
  });
});
