// The examples run against a fresh server (startSwitchboard: embedded broker, SQLite, gateway):
// each is started as a person would start it, given a task by a facilitator's console over /mqtt,
// and must leave an approved ack, progress and result in the room's public history. The Python
// example needs python3 with paho-mqtt 1.6 or 2: Debian's python3-paho-mqtt (scripts/test.sh
// installs it when root), or paho-mqtt from PyPI in a virtual environment; where neither can be
// had the test is skipped and says why.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuedCredential } from '@shared/contract/agents';
import { PresenceList } from '@shared/contract/rooms';
import { loadConfig } from '../server/config';
import { startSwitchboard, type RunningSwitchboard } from '../server/runtime/start-switchboard';
import { connectClient } from '../server/test-support/mqtt-clients';
import { sessionCookie } from '../server/test-support/sessions';

const run = promisify(execFile);
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const ROOM = 'examples';
const TSX = join(process.cwd(), 'node_modules/.bin/tsx');

let sb: RunningSwitchboard;
let dataDir: string;
let cookie: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-examples-'));
  sb = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0' }));
  await sb.rooms.create({ id: ROOM, name: 'Examples', moderation: 'auto' });
  cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
});

afterAll(async () => {
  await sb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newAgent(agentId: string): Promise<string> {
  const res = await fetch(`${sb.url}/api/agent-accounts`, {
    method: 'POST',
    headers: { cookie, origin: sb.url, 'content-type': 'application/json' },
    body: JSON.stringify({ agentId }),
  });
  expect(res.status).toBe(201);
  return IssuedCredential.parse(await res.json()).password;
}

async function present(agentId: string): Promise<boolean> {
  const res = await fetch(`${sb.url}/api/rooms/${ROOM}/agents`, { headers: { cookie } });
  return PresenceList.parse(await res.json()).agents.some((a) => a.agentId === agentId && a.status === 'online');
}

/** Until `check` holds: liveness only, bounded by the test's timeout. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

/** The grant, then the task, as the console's "Assign with mic" sends them. */
async function assign(agentId: string, taskId: string): Promise<void> {
  const console_ = await connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, {
    wsOptions: { headers: { cookie, origin: sb.url } },
  });
  const now = Math.floor(Date.now() / 1000);
  const from = { kind: 'user', id: FACILITATOR };
  const grant = {
    task_id: taskId,
    agent_id: agentId,
    max_messages: 5,
    allowed_message_types: ['ack', 'progress', 'result'],
    expires_at: now + 600,
  };
  await console_.client.publishAsync(
    `rooms/${ROOM}/control`,
    JSON.stringify({ id: `g_${taskId}`, type: 'mic_grant', room_id: ROOM, from, ts: now, payload: grant }),
    { qos: 1 },
  );
  await console_.client.publishAsync(
    `rooms/${ROOM}/agents/${agentId}/inbox`,
    JSON.stringify({
      id: `t_${taskId}`,
      type: 'task',
      room_id: ROOM,
      from,
      ts: now,
      payload: { task_id: taskId, goal: 'Say hello' },
    }),
    { qos: 1 },
  );
  await console_.client.endAsync(true);
}

/** Starts an example; resolves with its exit code and output once it exits. */
function start(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
  return { child, exited, output: () => output };
}

/** The approved messages of `agentId` in the room's public history, by message type. */
async function approved(agentId: string, taskId: string): Promise<string[]> {
  const page = await sb.store.rooms.listMessages({ roomId: ROOM, topicKinds: ['public'], agentId, limit: 50 });
  return page.messages
    .map(
      (m) => JSON.parse(new TextDecoder().decode(m.payload)) as { payload: { task_id: string; message_type: string } },
    )
    .filter((e) => e.payload.task_id === taskId)
    .map((e) => e.payload.message_type);
}

async function runExample(
  agentId: string,
  taskId: string,
  command: string,
  args: string[],
  env: Record<string, string>,
) {
  const password = await newAgent(agentId);
  const example = start(command, args, { AGENT_ID: agentId, AGENT_PASSWORD: password, ROOM, ...env });
  try {
    await eventually(async () => (await present(agentId)) || example.child.exitCode !== null);
    await assign(agentId, taskId);
    const { code, output } = await example.exited;
    expect(code, output).toBe(0);
    await eventually(async () => (await approved(agentId, taskId)).length === 3);
    expect(await approved(agentId, taskId)).toEqual(['ack', 'progress', 'result']);
  } finally {
    example.child.kill();
  }
}

describe('examples/', () => {
  it('aor-agent.ts (the TypeScript agent client) handles a task', async () => {
    await runExample('agent.ts-example', 'task_ts', TSX, ['examples/aor-agent.ts'], {
      MQTT_URL: sb.mqttUrl,
      ONCE: '1',
    });
  });

  it('mcp-agent.ts (an MCP client) handles a task through /mcp', async () => {
    await runExample('agent.mcp-example', 'task_mcp', TSX, ['examples/mcp-agent.ts'], { SWITCHBOARD_URL: sb.url });
  });

  it('python/aor_agent.py (paho-mqtt) handles a task', async (ctx) => {
    const python = await pythonWithPaho();
    if (typeof python !== 'string') return ctx.skip(python.reason);
    await runExample('agent.py-example', 'task_py', python, ['examples/python/aor_agent.py'], { MQTT_URL: sb.mqttUrl });
  }, 180_000);
});

/**
 * A python3 with paho-mqtt: python3 on PATH or the system's /usr/bin/python3 if either has it
 * (Debian's python3-paho-mqtt installs for the latter, and PATH may lead elsewhere, to pyenv's for
 * one), else a virtual environment under node_modules/.cache with paho-mqtt from PyPI. Or why
 * there is none.
 */
async function pythonWithPaho(): Promise<string | { reason: string }> {
  const withPaho = (python: string) =>
    run(python, ['-c', 'import sys, paho.mqtt.client; print(sys.executable)'], { timeout: 20_000 }).then(
      ({ stdout }) => stdout.trim(),
      () => undefined,
    );
  for (const python of ['python3', '/usr/bin/python3']) {
    const found = await withPaho(python);
    if (found) return found;
  }
  try {
    await run('python3', ['--version'], { timeout: 10_000 });
  } catch {
    return { reason: 'python3 is not installed: the Python example was not run' };
  }
  const venv = join(process.cwd(), 'node_modules/.cache/examples-venv');
  const python = join(venv, 'bin/python');
  try {
    if (!existsSync(python)) await run('python3', ['-m', 'venv', venv], { timeout: 60_000 });
    if (!(await withPaho(python)))
      await run(python, ['-m', 'pip', 'install', '--quiet', 'paho-mqtt>=2,<3'], { timeout: 150_000 });
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    return {
      reason:
        `paho-mqtt could not be installed (${why}): the Python example was not run ` +
        "(Debian's python3-paho-mqtt provides it for /usr/bin/python3)",
    };
  }
  return (await withPaho(python)) ?? { reason: 'paho-mqtt is not importable: the Python example was not run' };
}
