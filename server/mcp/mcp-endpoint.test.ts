// /mcp driven by the official MCP client (Client + StreamableHTTPClientTransport) against a real
// server (startSwitchboard: embedded broker, SQLite, the gateway): an agent made through the
// console API joins a room, is given a task by a facilitator's console over /mqtt, acks, reports
// progress and a result, has a message type its grant does not allow rejected with the reason,
// and is suspended from the console, which ends its session at once (decisions-mcp.md §1–§4).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuedCredential } from '@shared/contract/agents';
import { PresenceList } from '@shared/contract/rooms';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { connectClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';
import { basicAuthHeader } from './basic-auth';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const ROOM = 'ops';

let sb: RunningSwitchboard;
let dataDir: string;
let facilitator: string;
const clients: Client[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-mcp-'));
  sb = await startSwitchboard(
    loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', MQTT_REVALIDATE_MS: '600000' }),
  );
  await sb.rooms.create({ id: ROOM, name: 'Operations', moderation: 'auto' });
  facilitator = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method,
    headers: {
      cookie: facilitator,
      origin: sb.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function newAgent(agentId: string): Promise<string> {
  const res = await api('POST', '/api/agent-accounts', { agentId });
  expect(res.status).toBe(201);
  return IssuedCredential.parse(await res.json()).password;
}

async function mcpClient(authorization: string): Promise<Client> {
  const client = new Client({ name: 'switchboard-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp`), {
    requestInit: { headers: { authorization } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** A task assigned the way the console does it (web/lib/mqtt/publish.ts): the grant, then the task. */
async function assignFromConsole(agentId: string, taskId: string, goal: string, allowed: string[]): Promise<void> {
  const console_ = await connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, {
    wsOptions: { headers: { cookie: facilitator, origin: sb.url } },
  });
  const now = Math.floor(Date.now() / 1000);
  const from = { kind: 'user', id: FACILITATOR };
  await console_.client.publishAsync(
    `rooms/${ROOM}/control`,
    JSON.stringify({
      id: `grant_${taskId}`,
      type: 'mic_grant',
      room_id: ROOM,
      from,
      ts: now,
      payload: {
        task_id: taskId,
        agent_id: agentId,
        max_messages: 5,
        allowed_message_types: allowed,
        expires_at: now + 3600,
      },
    }),
    { qos: 1 },
  );
  await console_.client.publishAsync(
    `rooms/${ROOM}/agents/${agentId}/inbox`,
    JSON.stringify({
      id: `task_${taskId}`,
      type: 'task',
      room_id: ROOM,
      from,
      ts: now,
      payload: { task_id: taskId, goal },
    }),
    { qos: 1 },
  );
  await console_.client.endAsync(true);
}

async function presenceOf(agentId: string): Promise<string | undefined> {
  const res = await api('GET', `/api/rooms/${ROOM}/agents`);
  return PresenceList.parse(await res.json()).agents.find((a) => a.agentId === agentId)?.status;
}

/** Until `check` holds: liveness only, bounded by the test's timeout. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 25));
}

describe('/mcp', () => {
  it('lists the AOR tools, each with a description for a model and a JSON Schema for its input', async () => {
    const password = await newAgent('agent.lister');
    const client = await mcpClient(basicAuthHeader('agent.lister', password));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['ask', 'join_room', 'leave_room', 'my_rooms', 'post', 'room_history', 'wait_for_answer', 'wait_for_task'].sort(),
    );
    const post = tools.find((t) => t.name === 'post')!;
    expect(post.description).toMatch(/approved.*rejected/s);
    expect(post.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['room', 'task_id', 'message_type', 'content']),
    });
    expect(JSON.stringify(post.inputSchema)).toContain('clarifying_question');
  });

  it('joins a room, waits for a task from the console, acks, reports, is refused a type its grant does not allow, ends', async () => {
    const password = await newAgent('agent.mcp');
    const client = await mcpClient(basicAuthHeader('agent.mcp', password));

    const rooms = await call(client, 'my_rooms');
    expect(rooms.structuredContent).toMatchObject({ rooms: [{ roomId: ROOM, joined: false }] });
    expect(text(await call(client, 'join_room', { room: ROOM }))).toContain(`Joined ${ROOM}`);
    await eventually(async () => (await presenceOf('agent.mcp')) === 'online');

    const waiting = call(client, 'wait_for_task', { wait_seconds: 20 });
    await assignFromConsole('agent.mcp', 'task_7', 'Compare the two brokers', ['ack', 'progress', 'result']);
    const task = await waiting;
    expect(task.isError).toBeFalsy();
    expect(text(task)).toContain('Goal: Compare the two brokers');
    expect(text(task)).toContain('ack, progress, result');
    expect(task.structuredContent).toMatchObject({
      task: {
        roomId: ROOM,
        taskId: 'task_7',
        goal: 'Compare the two brokers',
        grant: { allowedMessageTypes: ['ack', 'progress', 'result'], maxMessages: 5 },
      },
    });

    const post = (message_type: string, content: Record<string, unknown>) =>
      call(client, 'post', { room: ROOM, task_id: 'task_7', message_type, content });
    const ack = await post('ack', { text: 'On it.' });
    expect(ack.structuredContent).toMatchObject({ status: 'approved' });
    expect((await post('progress', { text: 'Halfway.' })).structuredContent).toMatchObject({ status: 'approved' });
    const finding = await post('finding', { bullets: ['EMQX clusters'] });
    expect(finding.isError).toBe(true);
    expect(finding.structuredContent).toMatchObject({ status: 'rejected', reason: 'message_type_not_allowed' });
    expect(text(finding)).toContain('this message type is not allowed by the mic grant');
    expect(text(finding)).toContain('message_type_not_allowed');
    expect((await post('result', { text: 'Use EMQX.' })).structuredContent).toMatchObject({ status: 'approved' });

    // Malformed content is refused before anything is sent, as a tool error; the session lives on.
    const bad = await post('artifact_link', { url: 'javascript:alert(1)' });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ code: 'invalid_envelope' });

    const history = await call(client, 'room_history', { room: ROOM, limit: 10 });
    expect(text(history)).toContain('agent.mcp (ack): On it.');
    expect(text(history)).toContain('agent.mcp (result): Use EMQX.');
    expect(text(history)).not.toContain('EMQX clusters');

    // Suspended from the console: the session ends at once, the agent goes offline, calls are refused.
    const suspended = await api('POST', '/api/agent-accounts/agent.mcp/suspend', { reason: 'test over' });
    expect(suspended.status).toBe(200);
    await expect(call(client, 'my_rooms')).rejects.toThrow(/404|MCP_SESSION_NOT_FOUND|not found/i);
    await eventually(async () => (await presenceOf('agent.mcp')) === 'offline');
    const again = new Client({ name: 'again', version: '1.0.0' });
    await expect(
      again.connect(
        new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp`), {
          requestInit: { headers: { authorization: basicAuthHeader('agent.mcp', password) } },
        }),
      ),
    ).rejects.toThrow(/AGENT_SUSPENDED|403/);
  });

  it('asks a clarifying question and hears the answer that mentions it', async () => {
    const password = await newAgent('agent.asker');
    const client = await mcpClient(basicAuthHeader('agent.asker', password));
    await call(client, 'join_room', { room: ROOM });
    await assignFromConsole('agent.asker', 'task_q', 'Pick a region', ['clarifying_question', 'result']);
    const task = await call(client, 'wait_for_task', { wait_seconds: 20 });
    expect(task.structuredContent).toMatchObject({ task: { taskId: 'task_q', goal: 'Pick a region' } });
    const asked = await call(client, 'ask', { room: ROOM, task_id: 'task_q', question: 'EU or US?' });
    expect(asked.structuredContent).toMatchObject({ status: 'approved' });
    const console_ = await connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, {
      wsOptions: { headers: { cookie: facilitator, origin: sb.url } },
    });
    await console_.client.publishAsync(
      `rooms/${ROOM}/public`,
      JSON.stringify({
        id: 'say_answer',
        type: 'say',
        room_id: ROOM,
        from: { kind: 'user', id: FACILITATOR },
        ts: Math.floor(Date.now() / 1000),
        payload: { text: '@agent.asker EU, please.' },
      }),
      { qos: 1 },
    );
    await console_.client.endAsync(true);
    const answer = await call(client, 'wait_for_answer', { room: ROOM, wait_seconds: 20 });
    expect(answer.structuredContent).toMatchObject({ answer: '@agent.asker EU, please.' });
    // Closing the session (HTTP DELETE) leaves the room at once.
    await eventually(async () => (await presenceOf('agent.asker')) === 'online');
    const transport = client.transport as StreamableHTTPClientTransport;
    await transport.terminateSession();
    await eventually(async () => (await presenceOf('agent.asker')) === 'offline');
  });

  it('refuses a missing or wrong credential with 401 and a Basic challenge, and a session id under other credentials', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${sb.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(await none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const password = await newAgent('agent.owner');
    const wrong = await post({ authorization: basicAuthHeader('agent.owner', `${password}x`) });
    expect(wrong.status).toBe(401);

    const client = await mcpClient(basicAuthHeader('agent.owner', password));
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const other = await newAgent('agent.other');
    const hijack = await fetch(`${sb.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        authorization: basicAuthHeader('agent.other', other),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(hijack.status).toBe(404);
    expect(await hijack.json()).toMatchObject({ code: 'MCP_SESSION_NOT_FOUND' });
    // Tool errors never end the session: an unknown room, then a working call.
    const unknown = await call(client, 'join_room', { room: 'nowhere' });
    expect(unknown).toMatchObject({ isError: true, structuredContent: { code: 'ROOM_NOT_FOUND' } });
    expect((await call(client, 'my_rooms')).isError).toBeFalsy();
  });

  it('bounds the sessions one agent may hold', async () => {
    const password = await newAgent('agent.many');
    for (let i = 0; i < 4; i++) await mcpClient(basicAuthHeader('agent.many', password));
    await expect(mcpClient(basicAuthHeader('agent.many', password))).rejects.toThrow(/MCP_SESSION_LIMIT|429/);
  });
});
