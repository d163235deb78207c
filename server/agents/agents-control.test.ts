// Agents under control through the real server (startSwitchboard: embedded broker, SQLite, the
// gateway), its HTTP API and real MQTT clients (decisions-server.md §62). The broker's periodic
// sweep is out of reach (MQTT_REVALIDATE_MS of ten minutes, a clock that never moves), so every
// connection closed here was closed by the action itself, or, for the CLI, by the store's signal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentAccountAnswer,
  AgentAccountList,
  DisconnectAnswer,
  IssuedCredential,
  SuspendAnswer,
} from '@shared/contract/agents';
import { runCli } from '../cli/run-cli';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { manualClock } from '../test-support/manual-clock';
import { connectClient, tryConnect, type TestClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';

let sb: RunningSwitchboard;
let dataDir: string;
let facilitator: string;
let observer: string;
const clock = manualClock(Date.UTC(2026, 10, 22, 12));
const control: { type: string; payload: Record<string, unknown> }[] = [];
const open: TestClient[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-agents-'));
  sb = await startSwitchboard(
    loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', MQTT_REVALIDATE_MS: '600000' }),
    { clock },
  );
  await sb.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  sb.broker.onMessage('rooms/ops/control', (m) => void control.push(JSON.parse(new TextDecoder().decode(m.payload))));
  facilitator = await sessionCookie(sb.store, FACILITATOR, 'facilitator', clock.now());
  observer = await sessionCookie(sb.store, OBSERVER, 'observer', clock.now());
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.client.endAsync(true)));
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(method: string, path: string, cookie: string, body?: unknown, origin: string | null = sb.url) {
  return fetch(`${sb.url}/api/agent-accounts${path}`, {
    method,
    headers: {
      cookie,
      ...(origin ? { origin } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function create(agentId: string): Promise<string> {
  const res = await api('POST', '', facilitator, { agentId });
  expect(res.status).toBe(201);
  return IssuedCredential.parse(await res.json()).password;
}

async function connect(agentId: string, password: string): Promise<TestClient> {
  const c = await connectClient(sb.mqttUrl, { username: agentId, password, clientId: `${agentId}/1` });
  open.push(c);
  return c;
}

const closed = (c: TestClient) =>
  new Promise<void>((resolve) => (c.client.connected ? c.client.once('close', () => resolve()) : resolve()));

async function account(agentId: string) {
  const res = await api('GET', `/${encodeURIComponent(agentId)}`, observer);
  expect(res.status).toBe(200);
  return AgentAccountAnswer.parse(await res.json()).agent;
}

/** Until `check` holds: liveness only, bounded by the test's timeout. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

async function grant(agentId: string, taskId: string): Promise<void> {
  const console_ = await connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, {
    wsOptions: { headers: { cookie: facilitator, origin: sb.url } },
  });
  const now = Math.floor(clock.now() / 1000);
  await console_.client.publishAsync(
    'rooms/ops/control',
    JSON.stringify({
      id: `grant_${agentId}_${taskId}`,
      type: 'mic_grant',
      room_id: 'ops',
      from: { kind: 'user', id: FACILITATOR },
      ts: now,
      payload: {
        task_id: taskId,
        agent_id: agentId,
        max_messages: 5,
        allowed_message_types: ['progress'],
        expires_at: now + 3600,
      },
    }),
    { qos: 1 },
  );
  await console_.client.endAsync(true);
  await eventually(async () => (await sb.store.rooms.getGrant('ops', agentId, taskId)) !== undefined);
}

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

describe('/api/agent-accounts', () => {
  it('creates a credential once (password in that answer only), lists it with its live connections', async () => {
    const password = await create('agent.one');
    const again = await api('POST', '', facilitator, { agentId: 'agent.one' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'AGENT_EXISTS' });
    await connect('agent.one', password);
    const list = await api('GET', '', observer);
    expect(list.status).toBe(200);
    const body = AgentAccountList.parse(await list.json());
    expect(body).toMatchObject({ mqttUrl: sb.mqttUrl, broker: 'embedded' });
    expect(body.agents).toEqual([
      expect.objectContaining({
        agentId: 'agent.one',
        connections: 1,
        suspended: null,
        grants: [],
        rejectsLastHour: 0,
      }),
    ]);
    expect(JSON.stringify(body)).not.toContain(password);
    const audit = await sb.store.access.listAudit({ limit: 5 });
    expect(audit[0]).toMatchObject({
      action: 'agent.create',
      actorDid: FACILITATOR,
      details: { agentId: 'agent.one' },
    });
    expect(JSON.stringify(audit)).not.toContain(password);
  });

  it('refuses observers, a missing Origin, a bad agentId and unknown agents, changing nothing', async () => {
    const before = await sb.store.access.listAgentCredentials();
    expect((await api('POST', '', observer, { agentId: 'agent.obs' })).status).toBe(403);
    expect((await api('POST', '/agent.one/suspend', observer, { reason: 'no' })).status).toBe(403);
    const csrf = await api('POST', '', facilitator, { agentId: 'agent.csrf' }, null);
    expect(csrf.status).toBe(403);
    expect(await csrf.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    const bad = await api('POST', '', facilitator, { agentId: 'has/slash' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    expect((await api('POST', '/agent.one/suspend', facilitator, { reason: '   ' })).status).toBe(400);
    expect((await api('POST', '/agent.one/suspend', facilitator, { reason: 'x', extra: 1 })).status).toBe(400);
    for (const path of ['/agent.ghost/rotate', '/agent.ghost/disconnect', '/agent.ghost/resume']) {
      const res = await api('POST', path, facilitator, {});
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'AGENT_NOT_FOUND' });
    }
    expect((await api('DELETE', '/agent.ghost', facilitator)).status).toBe(404);
    expect((await api('GET', '/agent.ghost', observer)).status).toBe(404);
    expect((await api('GET', '/has%2Fslash', observer)).status).toBe(404);
    expect((await api('POST', '/has%2Fslash/disconnect', facilitator, {})).status).toBe(400);
    expect((await api('GET', '', '')).status).toBe(401);
    expect(await sb.store.access.listAgentCredentials()).toEqual(before);
  });

  it('suspend closes the connection at once, ends its grant with a readable revoke, and refuses it until resumed', async () => {
    const password = await create('agent.sus');
    const c = await connect('agent.sus', password);
    await grant('agent.sus', 'task-s');
    expect((await account('agent.sus')).grants).toEqual([
      { roomId: 'ops', taskId: 'task-s', maxMessages: 5, spent: 0, expiresAt: expect.any(Number) },
    ]);
    const res = await api('POST', '/agent.sus/suspend', facilitator, { reason: 'floods the room' });
    expect(res.status).toBe(200);
    const answer = SuspendAnswer.parse(await res.json());
    expect(answer.grantsEnded).toBe(1);
    expect(answer.agent.suspended).toEqual({
      at: clock.now(),
      by: FACILITATOR,
      byName: null,
      reason: 'floods the room',
    });
    const suspendedAt = clock.now();
    expect(answer.agent.grants).toEqual([]);
    await closed(c);
    const revoke = control.find((m) => m.type === 'mic_revoke' && m.payload.agent_id === 'agent.sus');
    expect(revoke?.payload).toEqual({
      task_id: 'task-s',
      agent_id: 'agent.sus',
      reason: 'agent_suspended: floods the room',
    });
    expect((await sb.store.rooms.getGrant('ops', 'agent.sus', 'task-s'))?.endedAt).not.toBeNull();
    expect(await tryConnect(sb.mqttUrl, { username: 'agent.sus', password, clientId: 'agent.sus/2' })).toMatch(
      /Not authorized/i,
    );
    const roomAudit = await sb.store.access.listAudit({ roomId: 'ops', limit: 5 });
    expect(roomAudit[0]).toMatchObject({
      action: 'agent.suspend',
      actorDid: FACILITATOR,
      details: { agentId: 'agent.sus', reason: 'floods the room', grantsEnded: ['task-s'] },
    });

    const resumed = await api('POST', '/agent.sus/resume', facilitator, {});
    expect(resumed.status).toBe(200);
    const after = AgentAccountAnswer.parse(await resumed.json()).agent;
    expect(after.suspended).toBeNull();
    // After the resume, the row can still say who suspended it, when and why (decisions-server.md §83).
    expect(after.lastAction).toMatchObject({
      action: 'agent.resume',
      by: FACILITATOR,
      lifted: { at: suspendedAt, by: FACILITATOR, byName: null, reason: 'floods the room' },
    });
    expect(await tryConnect(sb.mqttUrl, { username: 'agent.sus', password, clientId: 'agent.sus/3' })).toBe(
      'connected',
    );
  });

  it('disconnect closes the connection now and lets the agent connect again', async () => {
    const password = await create('agent.dis');
    const c = await connect('agent.dis', password);
    const res = await api('POST', '/agent.dis/disconnect', facilitator, {});
    expect(res.status).toBe(200);
    expect(DisconnectAnswer.parse(await res.json())).toEqual({ agentId: 'agent.dis', disconnected: 1 });
    await closed(c);
    const again = await connect('agent.dis', password);
    expect(again.client.connected).toBe(true);
    expect((await account('agent.dis')).connections).toBe(1);
  });

  it('rotate closes the old connection, refuses the old password and accepts the new one', async () => {
    const old = await create('agent.rot');
    const c = await connect('agent.rot', old);
    const res = await api('POST', '/agent.rot/rotate', facilitator, {});
    expect(res.status).toBe(200);
    const { password } = IssuedCredential.parse(await res.json());
    expect(password).not.toBe(old);
    await closed(c);
    expect(await tryConnect(sb.mqttUrl, { username: 'agent.rot', password: old, clientId: 'agent.rot/2' })).toMatch(
      /Bad user ?name or password/i,
    );
    expect(await tryConnect(sb.mqttUrl, { username: 'agent.rot', password, clientId: 'agent.rot/3' })).toBe(
      'connected',
    );
  });

  it('remove closes the connection and forgets the agent', async () => {
    const password = await create('agent.rm');
    const c = await connect('agent.rm', password);
    expect((await api('DELETE', '/agent.rm', facilitator)).status).toBe(200);
    await closed(c);
    expect((await api('GET', '/agent.rm', observer)).status).toBe(404);
  });
});

describe('the CLI acting on a running server (same data directory)', () => {
  it('agents suspend closes the connection and ends the grant through the store signal; resume and disconnect', async () => {
    const password = await create('agent.cli');
    const c = await connect('agent.cli', password);
    await grant('agent.cli', 'task-c');
    await cli('agents', 'suspend', 'agent.cli', '--reason', 'off-topic');
    await closed(c);
    await eventually(
      async () => ((await sb.store.rooms.getGrant('ops', 'agent.cli', 'task-c'))?.endedAt ?? null) !== null,
    );
    await eventually(() =>
      control.some((m) => m.type === 'mic_revoke' && m.payload.reason === 'agent_suspended: off-topic'),
    );
    const roomAudit = await sb.store.access.listAudit({ roomId: 'ops', limit: 5 });
    expect(roomAudit[0]).toMatchObject({ action: 'agent.suspend', actorDid: 'cli', details: { agentId: 'agent.cli' } });
    expect(await cli('agents', 'list')).toContain('agent.cli\t');
    await cli('agents', 'resume', 'agent.cli');
    const back = await connect('agent.cli', password);
    await cli('agents', 'disconnect', 'agent.cli');
    await closed(back);
    expect((await connect('agent.cli', password)).client.connected).toBe(true);
  });
});
