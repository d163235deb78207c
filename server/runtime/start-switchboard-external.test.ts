// MQTT_URL end to end: `cli broker setup` and `cli agents add`
// provision a private Mosquitto; the server runs its gateway over it; an agent added by the CLI
// gets a granted candidate approved, and an agent removed by the CLI is refused; consoles reach
// the rooms through the server's /mqtt bridge, with their role enforced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli';
import { loadConfig } from '../config';
import { agentCandidateTopic } from '../mqtt/mosquitto-dynsec';
import { startSwitchboard, type RunningSwitchboard } from './start-switchboard';
import { connectClient, tryConnect } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';

let mosquitto: PrivateMosquitto;
let sb: RunningSwitchboard;
let dataDir: string;
let env: NodeJS.ProcessEnv;

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env,
    cwd: dataDir,
    now: () => Date.now(),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  mosquitto = await startPrivateMosquitto();
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-ext-runtime-'));
  env = {
    DATA_DIR: dataDir,
    PORT: '0',
    DEMO: '0',
    MQTT_URL: mosquitto.url,
    MQTT_ADMIN_USERNAME: mosquitto.admin.username,
    MQTT_ADMIN_PASSWORD: mosquitto.admin.password,
    MQTT_CLIENT_ID: 'sb-test-1',
    // No sweep within a test: a console's socket closes on the store's signal or not at all.
    MQTT_REVALIDATE_MS: '600000',
  };
  const setup = await cli('broker', 'setup', '--json');
  expect(setup.code).toBe(0);
  env.MQTT_PASSWORD = (JSON.parse(setup.stdout) as { password: string }).password;
  sb = await startSwitchboard(loadConfig(env));
  await sb.rooms.create({ id: 'r1', name: 'Room', moderation: 'auto' });
});

afterAll(async () => {
  await sb?.close();
  await mosquitto?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A console over the server's /mqtt WebSocket, as the browser connects: session cookie, same origin. */
const consoleClient = (cookie: string) =>
  connectClient(sb.url.replace('http', 'ws') + '/mqtt', { wsOptions: { headers: { cookie, origin: sb.url } } });

describe('Switchboard with MQTT_URL', () => {
  it('approves a granted candidate from an agent the CLI added, byte for byte', async () => {
    const added = await cli('agents', 'add', 'agent.one', '--json');
    expect(added.code).toBe(0);
    const { password } = JSON.parse(added.stdout) as { password: string };
    const agent = await connectClient(mosquitto.url, { username: 'agent.one', password, clientId: 'agent.one' });
    await agent.client.subscribeAsync('rooms/r1/public', { qos: 1 });
    const ts = Math.floor(Date.now() / 1000);
    const grant = {
      id: 'g1',
      type: 'mic_grant',
      room_id: 'r1',
      from: { kind: 'user', id: 'did:key:z6MkF' },
      ts,
      payload: {
        task_id: 't1',
        agent_id: 'agent.one',
        max_messages: 1,
        allowed_message_types: ['progress'],
        expires_at: ts + 600,
      },
    };
    await sb.broker.publish('rooms/r1/control', new TextEncoder().encode(JSON.stringify(grant)));
    for (let i = 0; i < 200 && !(await sb.store.rooms.getGrant('r1', 'agent.one', 't1')); i++)
      await new Promise((r) => setImmediate(r));
    const text = JSON.stringify({
      id: 'c1',
      type: 'result',
      room_id: 'r1',
      from: { kind: 'agent', id: 'agent.one' },
      ts,
      payload: { task_id: 't1', message_type: 'progress', content: { text: 'hi' } },
    });
    await agent.client.publishAsync(agentCandidateTopic('r1', 'agent.one'), text, { qos: 1 });
    const seen = await agent.until('rooms/r1/public', '"c1"');
    expect(seen.at(-1)!.payload).toBe(text);
    await agent.client.endAsync(true);
  });

  it("puts a review-mode candidate in the inbox through the broker's review notices, and takes it out once approved", async () => {
    await sb.rooms.create({ id: 'r-review', name: 'Review room', moderation: 'review' });
    const cookie = await sessionCookie(sb.store, 'did:key:z6MkInboxExternal', 'facilitator');
    const added = await cli('agents', 'add', 'agent.inbox', '--json');
    const { password } = JSON.parse(added.stdout) as { password: string };
    const agent = await connectClient(mosquitto.url, { username: 'agent.inbox', password, clientId: 'agent.inbox' });
    const ts = Math.floor(Date.now() / 1000);
    const grant = {
      id: 'g-inbox',
      type: 'mic_grant',
      room_id: 'r-review',
      from: { kind: 'user', id: 'did:key:z6MkF' },
      ts,
      payload: {
        task_id: 't1',
        agent_id: 'agent.inbox',
        max_messages: 5,
        allowed_message_types: ['result'],
        expires_at: ts + 600,
      },
    };
    await sb.broker.publish('rooms/r-review/control', new TextEncoder().encode(JSON.stringify(grant)));
    for (let i = 0; i < 200 && !(await sb.store.rooms.getGrant('r-review', 'agent.inbox', 't1')); i++)
      await new Promise((r) => setImmediate(r));
    const text = JSON.stringify({
      id: 'c-inbox',
      type: 'result',
      room_id: 'r-review',
      from: { kind: 'agent', id: 'agent.inbox' },
      ts,
      payload: { task_id: 't1', message_type: 'result', content: { text: 'please review' } },
    });
    await agent.client.publishAsync(agentCandidateTopic('r-review', 'agent.inbox'), text, { qos: 1 });
    const inbox = async () =>
      (
        (await (await fetch(`${sb.url}/api/inbox`, { headers: { cookie } })).json()) as {
          items: { kind: string; quote: string | null; ref: { candidateId?: string } }[];
        }
      ).items.filter((i) => i.kind === 'review');
    let items = await inbox();
    while (items.length === 0) {
      await new Promise((r) => setTimeout(r, 20));
      items = await inbox();
    }
    expect(items[0]!.quote).toBe('please review');
    const approved = await fetch(`${sb.url}/api/rooms/r-review/review/${items[0]!.ref.candidateId}/approve`, {
      method: 'POST',
      headers: { cookie, origin: sb.url },
    });
    expect(approved.status).toBe(200);
    while ((await inbox()).length > 0) await new Promise((r) => setTimeout(r, 20));
    await agent.client.endAsync(true);
  });

  it('refuses an agent the CLI removed', async () => {
    const added = await cli('agents', 'add', 'agent.two', '--json');
    const { password } = JSON.parse(added.stdout) as { password: string };
    expect(await tryConnect(mosquitto.url, { username: 'agent.two', password, clientId: 'agent.two' })).toBe(
      'connected',
    );
    expect((await cli('agents', 'remove', 'agent.two')).code).toBe(0);
    expect(await tryConnect(mosquitto.url, { username: 'agent.two', password, clientId: 'agent.two' })).toMatch(
      /Not authorized|Bad User Name/i,
    );
  });

  it('bridges /mqtt for consoles: a facilitator grants and speaks through the server, and sees the approved candidate, each once', async () => {
    const added = await cli('agents', 'add', 'agent.three', '--json');
    const { password } = JSON.parse(added.stdout) as { password: string };
    const agent = await connectClient(mosquitto.url, { username: 'agent.three', password, clientId: 'agent.three' });
    await agent.client.subscribeAsync('rooms/r1/public', { qos: 1 });
    const facilitator = await consoleClient(
      await sessionCookie(sb.store, 'did:key:z6MkFacilitatorBridge', 'facilitator'),
    );
    await facilitator.client.subscribeAsync('rooms/r1/#', { qos: 1 });
    const ts = Math.floor(Date.now() / 1000);
    const from = { kind: 'user', id: 'did:key:z6MkFacilitatorBridge' };
    // The grant goes console → server → Mosquitto, and the gateway learns it from the server's publish.
    const grant = JSON.stringify({
      id: 'g3',
      type: 'mic_grant',
      room_id: 'r1',
      from,
      ts,
      payload: {
        task_id: 't3',
        agent_id: 'agent.three',
        max_messages: 1,
        allowed_message_types: ['progress'],
        expires_at: ts + 600,
      },
    });
    await facilitator.client.publishAsync('rooms/r1/control', grant, { qos: 1 });
    for (let i = 0; i < 200 && !(await sb.store.rooms.getGrant('r1', 'agent.three', 't3')); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(await sb.store.rooms.getGrant('r1', 'agent.three', 't3')).toMatchObject({ maxMessages: 1 });
    // Broker → console: the agent's candidate, approved by the gateway, byte for byte.
    const candidate = JSON.stringify({
      id: 'c3',
      type: 'result',
      room_id: 'r1',
      from: { kind: 'agent', id: 'agent.three' },
      ts,
      payload: { task_id: 't3', message_type: 'progress', content: { text: 'found it' } },
    });
    await agent.client.publishAsync(agentCandidateTopic('r1', 'agent.three'), candidate, { qos: 1 });
    expect((await facilitator.until('rooms/r1/public', '"c3"')).at(-1)!.payload).toBe(candidate);
    // Console → broker: a say reaches the agent on Mosquitto, is stored and audited.
    const say = JSON.stringify({
      id: 's3',
      type: 'say',
      room_id: 'r1',
      from,
      ts,
      payload: { text: 'Thanks @agent.three' },
    });
    await facilitator.client.publishAsync('rooms/r1/public', say, { qos: 1 });
    expect((await agent.until('rooms/r1/public', '"s3"')).at(-1)!.payload).toBe(say);
    // A sentinel after everything: what came before it came once.
    const sentinel = JSON.stringify({ id: 'z3', type: 'say', room_id: 'r1', from, ts, payload: { text: 'end' } });
    await facilitator.client.publishAsync('rooms/r1/public', sentinel, { qos: 1 });
    const seen = await facilitator.until('rooms/r1/public', '"z3"');
    const count = (topic: string, id: string) =>
      seen.filter((m) => m.topic === topic && m.payload.includes(`"${id}"`)).length;
    expect([
      count('rooms/r1/public', 's3'),
      count('rooms/r1/public', 'c3'),
      count('rooms/r1/public_candidates', 'c3'),
      count('rooms/r1/control', 'g3'),
    ]).toEqual([1, 1, 1, 1]);
    const stored = await sb.store.rooms.listMessages({ roomId: 'r1', limit: 100 });
    expect(
      stored.messages
        .filter((m) => m.messageId === 's3' || m.messageId === 'g3')
        .map((m) => m.messageId)
        .sort(),
    ).toEqual(['g3', 's3']);
    const audit = await sb.store.access.listAudit({ roomId: 'r1', limit: 20 });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['room.say', 'room.mic_grant']));
    await Promise.all([agent.client.endAsync(true), facilitator.client.endAsync(true)]);
  });

  it('bridges /mqtt for an observer: reads the room, every publish refused, nothing reaches the broker', async () => {
    const observer = await consoleClient(await sessionCookie(sb.store, 'did:key:z6MkObserverBridge', 'observer'));
    await observer.client.subscribeAsync('rooms/r1/public', { qos: 1 });
    const ts = Math.floor(Date.now() / 1000);
    const say = JSON.stringify({
      id: 'o3',
      type: 'say',
      room_id: 'r1',
      from: { kind: 'user', id: 'did:key:z6MkObserverBridge' },
      ts,
      payload: { text: 'may I?' },
    });
    await expect(observer.client.publishAsync('rooms/r1/public', say, { qos: 1 })).rejects.toThrow(/Not authorized/);
    // The server's own say reaches the observer through the bridge.
    const note = JSON.stringify({
      id: 'n3',
      type: 'say',
      room_id: 'r1',
      from: { kind: 'user', id: 'did:key:z6MkF' },
      ts,
      payload: { text: 'note' },
    });
    await sb.broker.publish('rooms/r1/public', new TextEncoder().encode(note));
    await observer.until('rooms/r1/public', '"n3"');
    expect(
      (await sb.store.rooms.listMessages({ roomId: 'r1', limit: 200 })).messages.some((m) => m.messageId === 'o3'),
    ).toBe(false);
    await observer.client.endAsync(true);
  });

  it("closes a console the CLI demotes at once: the bridge checks its sockets on the store's signal", async () => {
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const c = await consoleClient(await sessionCookie(sb.store, did, 'facilitator'));
    const gone = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still connected after 10000 ms')), 10_000);
      c.client.once('close', () => (clearTimeout(timer), resolve()));
    });
    expect((await cli('operators', 'add', did, '--role', 'observer')).code).toBe(0);
    await gone;
  });

  it('runs the demo over the external broker: its agents provisioned through dynamic security, their messages in history', async () => {
    // One server per bound client id: this one replaces the first.
    await sb.close();
    sb = await startSwitchboard(loadConfig({ ...env, DEMO: '1' }));
    let heartbeats = 0;
    for (let i = 0; i < 200 && heartbeats === 0; i++) {
      heartbeats = (await sb.store.rooms.listMessages({ roomId: 'demo', limit: 50 })).messages.filter(
        (m) => m.topicKind === 'heartbeat',
      ).length;
      if (heartbeats === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(heartbeats).toBeGreaterThan(0);
  });

  it('reports ready while connected to the broker, and a coded 503 naming the broker once it is gone', async () => {
    const ready = await fetch(`${sb.url}/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { ready: true, checks: { store: 'ok', broker: 'ok' } }]);
    await mosquitto.stop();
    let res = await fetch(`${sb.url}/ready`);
    for (let i = 0; i < 200 && res.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      res = await fetch(`${sb.url}/ready`);
    }
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      ready: false,
      code: 'NOT_READY',
      checks: { store: 'ok', broker: expect.stringContaining('MQTT_URL') },
    });
  });
});
