// Agent credentials and the §8 ACL provisioned through Mosquitto's dynamic-security plugin, and
// enforced by a private Mosquitto 2 (never the system broker), through real MQTT 3.1.1 and 5
// clients. "Never arrives" is shown with a sentinel, not a timer (test-support/mqtt-clients.ts).
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, subscribeCode, tryConnect, type TestClient } from '../test-support/mqtt-clients';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';
import { agentCandidateTopic, agentRoleName, DEFAULT_ACL_ACCESS } from './dynsec-acls';
import { dynsecAgentBroker } from '../agents/agent-broker';
import { DynsecAdmin } from './mosquitto-dynsec';

const R = 'agent.researcher';
const A = 'agent.analyst';
const passwords = new Map([
  [R, 'pw-researcher'],
  [A, 'pw-analyst'],
]);
const SERVER = { username: 'switchboard-server', password: 'pw-server', clientId: 'switchboard-server-test' };

let broker: PrivateMosquitto;
let admin: DynsecAdmin;
/** The dynamic-security admin reads everything (`#`): whatever any client gets routed, it sees. */
let everything: TestClient;
/** Publishes as the server role (public, control, inboxes, and the agents' topics). */
let server: TestClient;
const open: TestClient[] = [];

beforeAll(async () => {
  broker = await startPrivateMosquitto();
  admin = await DynsecAdmin.connect({ url: broker.url, ...broker.admin });
  await admin.setupServer(SERVER.username, SERVER.password, SERVER.clientId);
  for (const [id, pw] of passwords) await admin.addAgent(id, pw);
  everything = await connectClient(broker.url, { ...broker.admin, clientId: 'watch-everything' });
  await everything.client.subscribeAsync('#', { qos: 1 });
  server = await connectClient(broker.url, SERVER);
});

afterAll(async () => {
  await everything?.client.endAsync(true);
  await server?.client.endAsync(true);
  await admin?.close();
  await broker?.stop();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.client.endAsync(true)));
});

/** An agent's one connection: its credential is bound to client id = agentId. */
async function agent(agentId: string, protocolVersion: 4 | 5 = 5): Promise<TestClient> {
  const c = await connectClient(broker.url, {
    username: agentId,
    password: passwords.get(agentId) ?? '',
    clientId: agentId,
    protocolVersion,
  });
  open.push(c);
  return c;
}

const text = (s: string) => new TextEncoder().encode(s);

describe('provisioning through dynamic security', () => {
  it.each([4, 5] as const)('an agent connects with its password over MQTT v%i', async (protocolVersion) => {
    expect(await tryConnect(broker.url, { username: R, password: 'pw-researcher', clientId: R, protocolVersion })).toBe(
      'connected',
    );
  });

  it.each([
    ['a wrong password', { username: R, password: 'nope', clientId: R }],
    ['an unknown agent', { username: 'agent.ghost', password: 'pw', clientId: 'agent.ghost' }],
    ['no credentials', {}],
    ['another client id than its agentId', { username: R, password: 'pw-researcher', clientId: 'elsewhere' }],
  ])('refuses %s', async (_label, credentials) => {
    expect(await tryConnect(broker.url, { ...credentials, protocolVersion: 5 })).toMatch(
      /Bad User Name or Password|Not authorized/i,
    );
  });

  it("refuses an agent taking another agent's client id, and leaves the holder connected", async () => {
    const holder = await agent(R);
    const attempt = await tryConnect(broker.url, {
      username: A,
      password: 'pw-analyst',
      clientId: R,
      protocolVersion: 5,
    });
    expect(attempt).toMatch(/Bad User Name or Password|Not authorized/i);
    // A round trip on the holder's connection after the refusal: it is still the same session.
    await holder.client.publishAsync(`rooms/r1/agents/${R}/heartbeat`, 'still-here', { qos: 1 });
    await everything.until(`rooms/r1/agents/${R}/heartbeat`, 'still-here');
    expect(holder.client.connected).toBe(true);
  });

  it("refuses an agent taking the server's client id, and leaves the server connected", async () => {
    const attempt = await tryConnect(broker.url, {
      username: R,
      password: 'pw-researcher',
      clientId: SERVER.clientId,
      protocolVersion: 5,
    });
    expect(attempt).toMatch(/Bad User Name or Password|Not authorized/i);
    await server.client.publishAsync('rooms/r1/public', 'server-still-here', { qos: 1 });
    await everything.until('rooms/r1/public', 'server-still-here');
    expect(server.client.connected).toBe(true);
  });

  it("refuses an agent resuming another's persistent session: the queued QoS 1 messages wait for their owner", async () => {
    const inbox = `rooms/r1/agents/${R}/inbox`;
    const owner = await connectClient(broker.url, {
      username: R,
      password: 'pw-researcher',
      clientId: R,
      clean: false,
      protocolVersion: 4,
    });
    await owner.client.subscribeAsync(inbox, { qos: 1 });
    await owner.client.endAsync();
    await server.client.publishAsync(inbox, 'queued-for-owner', { qos: 1 });
    const attempt = await tryConnect(broker.url, {
      username: A,
      password: 'pw-analyst',
      clientId: R,
      clean: false,
      protocolVersion: 4,
    });
    expect(attempt).toMatch(/Bad User Name or Password|Not authorized/i);
    // The broker sends the queued message right after CONNACK: listen before connecting.
    const back = mqtt.connect(broker.url, {
      username: R,
      password: 'pw-researcher',
      clientId: R,
      clean: false,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    const received = await new Promise<string>((resolve) =>
      back.on('message', (topic, payload) => topic === inbox && resolve(payload.toString())),
    );
    expect(received).toBe('queued-for-owner');
    await back.endAsync(true);
  });

  it("rotating an agent's password disconnects the connection made with the old one", async () => {
    await admin.addAgent('agent.rotated', 'old-pw');
    const before = await connectClient(broker.url, {
      username: 'agent.rotated',
      password: 'old-pw',
      clientId: 'agent.rotated',
    });
    const closed = new Promise<void>((resolve) => before.client.once('close', () => resolve()));
    expect(await admin.addAgent('agent.rotated', 'new-pw')).toBe('updated');
    await closed;
    expect(
      await tryConnect(broker.url, { username: 'agent.rotated', password: 'new-pw', clientId: 'agent.rotated' }),
    ).toBe('connected');
    await before.client.endAsync(true);
  });

  it('is idempotent, and adding again replaces the password', async () => {
    expect(await admin.addAgent('agent.rotating', 'first')).toBe('created');
    expect(await admin.addAgent('agent.rotating', 'second')).toBe('updated');
    expect(
      await tryConnect(broker.url, { username: 'agent.rotating', password: 'first', clientId: 'agent.rotating' }),
    ).toMatch(/Bad User Name or Password|Not authorized/i);
    expect(
      await tryConnect(broker.url, { username: 'agent.rotating', password: 'second', clientId: 'agent.rotating' }),
    ).toBe('connected');
    expect(await admin.listAgents()).toEqual(expect.arrayContaining(['agent.rotating', R, A]));
  });

  it('removing an agent disconnects it and refuses it from then on', async () => {
    await admin.addAgent('agent.leaving', 'pw-leaving');
    const leaving = await connectClient(broker.url, {
      username: 'agent.leaving',
      password: 'pw-leaving',
      clientId: 'agent.leaving',
    });
    const closed = new Promise<void>((resolve) => leaving.client.once('close', () => resolve()));
    expect(await admin.removeAgent('agent.leaving')).toBe(true);
    await closed;
    expect(
      await tryConnect(broker.url, { username: 'agent.leaving', password: 'pw-leaving', clientId: 'agent.leaving' }),
    ).toMatch(/Bad User Name or Password|Not authorized/i);
    expect(await admin.removeAgent('agent.leaving')).toBe(false);
    expect(await admin.listAgents()).not.toContain('agent.leaving');
    await leaving.client.endAsync(true);
  });

  it('brings a tampered role back to the §8 rules', async () => {
    await admin.send([
      {
        command: 'addRoleACL',
        rolename: agentRoleName(R),
        acltype: 'publishClientSend',
        topic: 'rooms/+/public',
        allow: true,
        priority: 100,
      },
    ]);
    await admin.addAgent(R, 'pw-researcher');
    const r = await agent(R);
    await expect(r.client.publishAsync('rooms/r1/public', 'tampered', { qos: 1 })).rejects.toThrow(/Not authorized/i);
  });

  it('sets deny-by-default ACL access', async () => {
    const [answer] = await admin.send([{ command: 'getDefaultACLAccess' }]);
    expect(answer?.data?.acls).toEqual(
      expect.arrayContaining(DEFAULT_ACL_ACCESS.map((a) => expect.objectContaining(a))),
    );
  });

  it.each([
    ['the admin', () => broker.admin.username, 'RESERVED_USERNAME'],
    ['the server', () => 'switchboard-server', 'RESERVED_USERNAME'],
    ['an id with a slash', () => 'a/b', 'INVALID_AGENT_ID'],
    ['a substitution pattern', () => '%c', 'INVALID_AGENT_ID'],
  ])('refuses to make an agent of %s', async (_label, id, code) => {
    await expect(admin.addAgent(id(), 'pw')).rejects.toMatchObject({ code });
  });

  it('neither takes over nor removes a client Switchboard did not create', async () => {
    await admin.send([
      { command: 'createClient', username: 'legacy', password: 'legacy-pw', roles: [{ rolename: 'admin' }] },
    ]);
    await expect(admin.addAgent('legacy', 'pw')).rejects.toMatchObject({ code: 'BROKER_CLIENT_NOT_MANAGED' });
    await expect(admin.removeAgent('legacy')).rejects.toMatchObject({ code: 'BROKER_CLIENT_NOT_MANAGED' });
    expect(await tryConnect(broker.url, { username: 'legacy', password: 'legacy-pw' })).toBe('connected');
  });

  it('reports a wrong admin password as a coded error', async () => {
    await expect(
      DynsecAdmin.connect({ url: broker.url, username: broker.admin.username, password: 'wrong' }),
    ).rejects.toMatchObject({ code: 'BROKER_AUTH_FAILED' });
  });
});

describe('§8 on Mosquitto: agents publish only their own candidates, heartbeat and work', () => {
  it.each([4, 5] as const)('routes the allowed topics (MQTT v%i)', async (v) => {
    const r = await agent(R, v);
    for (const topic of [agentCandidateTopic('r1', R), `rooms/r1/agents/${R}/heartbeat`, `rooms/r1/agents/${R}/work`]) {
      await r.client.publishAsync(topic, `allowed-${v}-${topic}`, { qos: 1 });
      await everything.until(topic, `allowed-${v}-${topic}`);
    }
  });

  it.each([
    'rooms/r1/public',
    'rooms/r1/control',
    'rooms/r1/public_candidates',
    agentCandidateTopic('r1', A),
    `${agentCandidateTopic('r1', R)}/deeper`,
    `rooms/r1/agents/${A}/inbox`,
    `rooms/r1/agents/${R}/inbox`,
    `rooms/r1/agents/${A}/heartbeat`,
    `rooms/r1/agents/${A}/work`,
    'switchboard/rooms/r1/review',
    'not/a/room/topic',
  ])('denies %s: MQTT 5 PUBACK refused, and the message never arrives', async (topic) => {
    const r = await agent(R);
    await expect(r.client.publishAsync(topic, `forbidden ${topic}`, { qos: 1 })).rejects.toThrow(/Not authorized/i);
    // Same connection, an allowed topic, afterwards: once it arrives, the forbidden one would have.
    await r.client.publishAsync(`rooms/r1/agents/${R}/heartbeat`, `sentinel ${topic}`, { qos: 1 });
    const seen = await everything.until(`rooms/r1/agents/${R}/heartbeat`, `sentinel ${topic}`);
    expect(seen.filter((m) => m.payload === `forbidden ${topic}`)).toEqual([]);
  });

  it('drops an MQTT 3.1.1 publish to a forbidden topic (v3 has no refusal code)', async () => {
    const r = await agent(R, 4);
    await r.client.publishAsync('rooms/r1/public', 'forbidden-v4', { qos: 1 }).catch(() => undefined);
    await r.client.publishAsync(`rooms/r1/agents/${R}/heartbeat`, 'sentinel-v4', { qos: 1 });
    const seen = await everything.until(`rooms/r1/agents/${R}/heartbeat`, 'sentinel-v4');
    expect(seen.filter((m) => m.payload === 'forbidden-v4')).toEqual([]);
  });
});

describe('§8 on Mosquitto: agents subscribe only to public, control and their own inbox', () => {
  it.each(['rooms/+/public', 'rooms/r1/control', `rooms/+/agents/${R}/inbox`, `rooms/r1/agents/${R}/inbox`])(
    'grants %s',
    async (filter) => {
      const r = await agent(R);
      expect(await subscribeCode(r.client, filter)).toBe(1);
    },
  );

  it.each([
    ["another agent's inbox", `rooms/r1/agents/${A}/inbox`, `rooms/r1/agents/${A}/inbox`],
    ['any inbox by wildcard', 'rooms/+/agents/+/inbox', `rooms/r1/agents/${A}/inbox`],
    ['its own agent subtree', `rooms/+/agents/${R}/#`, `rooms/r1/agents/${R}/work`],
    ["another agent's work", `rooms/r1/agents/${A}/work`, `rooms/r1/agents/${A}/work`],
    ['its own work', `rooms/r1/agents/${R}/work`, `rooms/r1/agents/${R}/work`],
    ['everything', '#', `rooms/r1/agents/${A}/inbox`],
    ['all room topics', 'rooms/#', `rooms/r1/agents/${A}/work`],
    ["another agent's candidates", `rooms/+/public_candidates/${A}`, agentCandidateTopic('r1', A)],
    ['every candidate', 'rooms/+/public_candidates/+', agentCandidateTopic('r1', A)],
    ['the plain candidates topic', 'rooms/+/public_candidates', agentCandidateTopic('r1', A)],
    ['a shared subscription', '$share/g/rooms/+/public_candidates/+', agentCandidateTopic('r1', A)],
    ['$SYS', '$SYS/#', agentCandidateTopic('r1', A)],
    ['the dynamic-security control topic', '$CONTROL/#', agentCandidateTopic('r1', A)],
  ])('refuses %s: SUBACK fails and nothing arrives', async (_label, filter, probeTopic) => {
    const r = await agent(R);
    await r.client.subscribeAsync('rooms/+/public', { qos: 1 });
    expect(await subscribeCode(r.client, filter)).toBeGreaterThanOrEqual(0x80);
    await server.client.publishAsync(probeTopic, Buffer.from(text(`secret ${filter}`)), { qos: 1 });
    await server.client.publishAsync('rooms/r1/public', `sentinel ${filter}`, { qos: 1 });
    const seen = await r.until('rooms/r1/public', `sentinel ${filter}`);
    expect(seen.filter((m) => m.payload === `secret ${filter}`)).toEqual([]);
  });

  it('refuses even a shared subscription to what it may read ($share is for gateways)', async () => {
    const r = await agent(R);
    expect(await subscribeCode(r.client, '$share/g/rooms/+/public')).toBeGreaterThanOrEqual(0x80);
  });
});

describe('suspension and disconnect through dynamic security (decisions-server.md §63)', () => {
  const S = 'agent.suspendable';
  const closedOnce = (c: TestClient) =>
    new Promise<void>((resolve) => (c.client.connected ? c.client.once('close', () => resolve()) : resolve()));

  beforeAll(async () => {
    passwords.set(S, 'pw-suspendable');
    await admin.addAgent(S, 'pw-suspendable');
  });

  it('disabling the client closes its connection and refuses it until it is enabled again', async () => {
    const s = await agent(S);
    const gone = closedOnce(s);
    expect(await admin.setAgentEnabled(S, false)).toBe(true);
    await gone;
    expect(await tryConnect(broker.url, { username: S, password: 'pw-suspendable', clientId: S })).toMatch(
      /Not authorized|Bad User Name or Password/i,
    );
    expect(await admin.setAgentEnabled(S, true)).toBe(true);
    expect(await tryConnect(broker.url, { username: S, password: 'pw-suspendable', clientId: S })).toBe('connected');
  });

  it('a kick closes the connection and lets the agent connect again', async () => {
    const s = await agent(S);
    const gone = closedOnce(s);
    expect(await admin.kickAgent(S)).toBe(true);
    await gone;
    expect(await tryConnect(broker.url, { username: S, password: 'pw-suspendable', clientId: S })).toBe('connected');
  });

  it('the agents service keeps a suspended agent disabled through a rotation and a disconnect', async () => {
    const broker_ = dynsecAgentBroker(() => DynsecAdmin.connect({ url: broker.url, ...broker.admin }));
    await broker_.suspended(S, true);
    await broker_.provision(S, 'pw-rotated', true);
    await broker_.closeConnections(S, true);
    expect(await tryConnect(broker.url, { username: S, password: 'pw-rotated', clientId: S })).toMatch(
      /Not authorized|Bad User Name or Password/i,
    );
    await broker_.suspended(S, false);
    expect(await tryConnect(broker.url, { username: S, password: 'pw-rotated', clientId: S })).toBe('connected');
    await broker_.provision(S, 'pw-suspendable', false);
    expect(broker_.connections(S)).toBeNull();
  });

  it('without the admin credentials, the agents service refuses with BROKER_UNAVAILABLE', async () => {
    await expect(dynsecAgentBroker(undefined).suspended(S, true)).rejects.toMatchObject({ code: 'BROKER_UNAVAILABLE' });
    expect(await tryConnect(broker.url, { username: S, password: 'pw-suspendable', clientId: S })).toBe('connected');
  });

  it('answers false for a client the broker does not have', async () => {
    expect(await admin.setAgentEnabled('agent.ghost', false)).toBe(false);
    expect(await admin.kickAgent('agent.ghost')).toBe(false);
  });
});
