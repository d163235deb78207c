// The whole process in one: HTTP app, embedded broker over TCP and WebSocket, gateway, store.
import { mkdtempSync, rmSync } from 'node:fs';
import { TEXT_LIMITS } from '@shared/contract/text-limits';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from './start-switchboard';
import { connectClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';

let sb: RunningSwitchboard;
let dataDir: string;
let facilitatorCookie: string;
let observerCookie: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-runtime-'));
  sb = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0' }));
  facilitatorCookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
  observerCookie = await sessionCookie(sb.store, OBSERVER, 'observer');
  await sb.store.access.putAgentCredential({
    agentId: 'agent.researcher',
    passwordHash: await hashPassword('pw'),
    createdAt: Date.now(),
  });
});

afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const wsUrl = () => sb.url.replace('http', 'ws') + '/mqtt';
const api = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(sb.url + path, {
    ...init,
    headers: { cookie, origin: sb.url, 'content-type': 'application/json', ...init.headers },
  });

async function operatorClient(cookie: string) {
  return connectClient(wsUrl(), { wsOptions: { headers: { cookie, origin: sb.url } } });
}

const envelope = (
  type: string,
  payload: object,
  fromId = FACILITATOR,
  id = `m_${Math.random().toString(36).slice(2)}`,
) =>
  JSON.stringify({
    id,
    type,
    room_id: 'ops',
    from: { kind: 'user', id: fromId },
    ts: Math.floor(Date.now() / 1000),
    payload,
  });

describe('rooms API', () => {
  it('lets a facilitator create a room, refuses a duplicate, and lets an observer read it', async () => {
    const created = await api('/api/rooms', facilitatorCookie, {
      method: 'POST',
      body: JSON.stringify({ id: 'ops', name: 'Operations', moderation: 'auto' }),
    });
    expect(created.status).toBe(201);
    const again = await api('/api/rooms', facilitatorCookie, {
      method: 'POST',
      body: JSON.stringify({ id: 'ops', name: 'Again' }),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'CONFLICT' });
    const list = await (await api('/api/rooms', observerCookie)).json();
    expect(list.rooms.map((r: { id: string }) => r.id)).toContain('ops');
  });

  it('refuses what an observer may not do, anonymous readers, and bad input, each with a code', async () => {
    const byObserver = await api('/api/rooms', observerCookie, {
      method: 'POST',
      body: JSON.stringify({ id: 'x', name: 'X' }),
    });
    expect([byObserver.status, (await byObserver.json()).code]).toEqual([403, 'FORBIDDEN']);
    const anonymous = await fetch(sb.url + '/api/rooms');
    expect([anonymous.status, (await anonymous.json()).code]).toEqual([401, 'UNAUTHORIZED']);
    const badId = await api('/api/rooms', facilitatorCookie, {
      method: 'POST',
      body: JSON.stringify({ id: 'a/b', name: 'Bad' }),
    });
    expect([badId.status, (await badId.json()).code]).toEqual([400, 'INVALID_REQUEST']);
    const badCursor = await api('/api/rooms/ops/messages?before=-1', observerCookie);
    expect(badCursor.status).toBe(400);
    const missing = await api('/api/rooms/nope/messages', observerCookie);
    expect([missing.status, (await missing.json()).code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('/mqtt for consoles', () => {
  it('refuses an upgrade without a session, with a foreign Origin, or with an unknown cookie', async () => {
    // The HTTP status of the upgrade answer, or 101 when it was accepted.
    const attempt = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(wsUrl(), 'mqtt', { headers });
        socket.once('upgrade', (res) => (socket.terminate(), resolve(res.statusCode ?? 0)));
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('error', () => resolve(-1));
      });
    expect(await attempt({})).toBe(401);
    expect(await attempt({ cookie: facilitatorCookie, origin: 'https://evil.example' })).toBe(401);
    expect(await attempt({ cookie: 'sb_session=' + 'A'.repeat(43), origin: sb.url })).toBe(401);
    expect(await attempt({ cookie: facilitatorCookie, origin: sb.url })).toBe(101);
  });

  it('lets a facilitator say, assign a task and grant the mic, each stored and audited', async () => {
    const f = await operatorClient(facilitatorCookie);
    await f.client.subscribeAsync('rooms/#', { qos: 1 });
    await f.client.publishAsync('rooms/ops/public', envelope('say', { text: 'Hello @agent.researcher' }), { qos: 1 });
    await f.client.publishAsync(
      'rooms/ops/agents/agent.researcher/inbox',
      envelope('task', { task_id: 't1', goal: 'Find 3 options', format: 'bullets', deadline: 1_900_000_000 }),
      { qos: 1 },
    );
    await f.client.publishAsync(
      'rooms/ops/control',
      envelope('mic_grant', {
        task_id: 't1',
        agent_id: 'agent.researcher',
        max_messages: 2,
        allowed_message_types: ['ack'],
        expires_at: Math.floor(Date.now() / 1000) + 3_600,
      }),
      { qos: 1 },
    );
    const page = await (await api('/api/rooms/ops/messages?limit=10', facilitatorCookie)).json();
    expect(page.messages.map((m: { type: string }) => m.type)).toEqual(['say', 'task', 'mic_grant']);
    const audit = await (await api('/api/rooms/ops/audit', facilitatorCookie)).json();
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['room.create', 'room.say', 'room.task', 'room.mic_grant']),
    );
    await f.client.endAsync(true);
  });

  it('refuses a facilitator speaking as someone else, and any publish by an observer', async () => {
    const f = await operatorClient(facilitatorCookie);
    await expect(
      f.client.publishAsync('rooms/ops/public', envelope('say', { text: 'spoof' }, OBSERVER), { qos: 1 }),
    ).rejects.toThrow(/Not authorized/);
    const o = await operatorClient(observerCookie);
    await o.client.subscribeAsync('rooms/#', { qos: 1 });
    await expect(
      o.client.publishAsync('rooms/ops/public', envelope('say', { text: 'hi' }, OBSERVER), { qos: 1 }),
    ).rejects.toThrow(/Not authorized/);
    const page = await (await api('/api/rooms/ops/messages?type=say', observerCookie)).json();
    expect(page.messages.map((m: { raw: string }) => m.raw)).not.toEqual(
      expect.arrayContaining([expect.stringContaining('spoof')]),
    );
    await Promise.all([f.client.endAsync(true), o.client.endAsync(true)]);
  });

  it('holds a facilitator to the console’s text limit and longest grant, and records nothing refused', async () => {
    const f = await operatorClient(facilitatorCookie);
    const ts = Math.floor(Date.now() / 1000);
    const grant = (seconds: number) =>
      JSON.stringify({
        id: `g_${seconds}`,
        type: 'mic_grant',
        room_id: 'ops',
        from: { kind: 'user', id: FACILITATOR },
        ts,
        payload: {
          task_id: 't_long',
          agent_id: 'agent.x',
          max_messages: 1,
          allowed_message_types: ['ack'],
          expires_at: ts + seconds,
        },
      });
    await expect(
      f.client.publishAsync('rooms/ops/public', envelope('say', { text: 'x'.repeat(TEXT_LIMITS.message + 1) }), {
        qos: 1,
      }),
    ).rejects.toThrow(/Not authorized/);
    await expect(f.client.publishAsync('rooms/ops/control', grant(190 * 365 * 86_400), { qos: 1 })).rejects.toThrow(
      /Not authorized/,
    );
    await f.client.publishAsync('rooms/ops/public', envelope('say', { text: 'y'.repeat(TEXT_LIMITS.message) }), {
      qos: 1,
    });
    const page = await (await api('/api/rooms/ops/messages?type=say', facilitatorCookie)).json();
    const raws = page.messages.map((m: { raw: string }) => m.raw);
    expect(raws).toEqual(expect.arrayContaining([expect.stringContaining('y'.repeat(TEXT_LIMITS.message))]));
    expect(raws).not.toEqual(expect.arrayContaining([expect.stringContaining('x'.repeat(TEXT_LIMITS.message + 1))]));
    await f.client.endAsync(true);
  });

  it('lets an agent and a console meet: a granted ack reaches the console on public', async () => {
    const f = await operatorClient(facilitatorCookie);
    await f.client.subscribeAsync('rooms/ops/public', { qos: 1 });
    const agent = await connectClient(sb.mqttUrl, { username: 'agent.researcher', password: 'pw' });
    const ack = JSON.stringify({
      id: 'ack_1',
      type: 'result',
      room_id: 'ops',
      from: { kind: 'agent', id: 'agent.researcher' },
      ts: Math.floor(Date.now() / 1000),
      payload: { task_id: 't1', message_type: 'ack', content: { text: 'On it' } },
    });
    await agent.client.publishAsync('rooms/ops/public_candidates', ack, { qos: 1 });
    const seen = await f.until('rooms/ops/public', 'ack_1');
    expect(seen.at(-1)?.payload).toBe(ack);
    await Promise.all([f.client.endAsync(true), agent.client.endAsync(true)]);
  });

  it('refuses a wrong password and a removed credential at CONNECT, against the stored scrypt hash', async () => {
    const attempt = (password: string) =>
      connectClient(sb.mqttUrl, { username: 'agent.temp', password }).then(
        async (c) => (await c.client.endAsync(true), 'connected'),
        (e: Error) => e.message,
      );
    await sb.store.access.putAgentCredential({
      agentId: 'agent.temp',
      passwordHash: await hashPassword('right'),
      createdAt: Date.now(),
    });
    expect(await attempt('right')).toBe('connected');
    expect(await attempt('wrong')).toMatch(/Bad User Name or Password/);
    await sb.store.access.removeAgentCredential('agent.temp');
    expect(await attempt('right')).toMatch(/Bad User Name or Password/);
  });

  it('refuses messages to rooms nobody created', async () => {
    const agent = await connectClient(sb.mqttUrl, { username: 'agent.researcher', password: 'pw' });
    await expect(agent.client.publishAsync('rooms/ghost/public_candidates', '{}', { qos: 1 })).rejects.toThrow(
      /Not authorized/,
    );
    await agent.client.endAsync(true);
  });
});

describe('close', () => {
  it('ends while a console is on /mqtt and an agent on TCP: both are disconnected, and everything stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-runtime-close-'));
    const other = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dir, DEMO: '0' }));
    await other.store.access.putAgentCredential({
      agentId: 'agent.stays',
      passwordHash: await hashPassword('pw'),
      createdAt: Date.now(),
    });
    const cookie = await sessionCookie(other.store, OBSERVER, 'observer');
    const consoleClient = await connectClient(other.url.replace('http', 'ws') + '/mqtt', {
      wsOptions: { headers: { cookie, origin: other.url } },
    });
    const agent = await connectClient(other.mqttUrl, { username: 'agent.stays', password: 'pw' });
    const ended = (c: typeof agent) => new Promise<void>((resolve) => c.client.once('close', () => resolve()));
    const gone = Promise.all([ended(consoleClient), ended(agent)]);
    // The HTTP server's close waits for its upgraded sockets: the console's must end first.
    await other.close();
    await gone;
    await expect(fetch(other.url + '/health')).rejects.toThrow();
    await Promise.all([consoleClient.client.endAsync(true), agent.client.endAsync(true)]);
    rmSync(dir, { recursive: true, force: true });
  });
});
