// The BrokerPort over a private Mosquitto 2: who published (from the per-agent candidate
// subtopic), the server's own publishes, the hook before dispatch (and redelivery when it
// fails), retained messages, and reconnecting with the session kept.
import { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';
import type { BrokerMessage } from './broker-port';
import { RefusedPublish } from './refused-publish';
import { ExternalBroker, uniqueClientId, type ExternalBrokerOptions } from './external-broker';
import { normalizeCandidate } from './external-topics';
import { agentCandidateTopic, GATEWAY_SHARE_GROUP, SERVER_ACLS } from './dynsec-acls';
import { DynsecAdmin } from './mosquitto-dynsec';

const R = 'agent.researcher';
const SERVER = { username: 'switchboard-server', password: 'pw-server' };
const decode = (m: BrokerMessage) => new TextDecoder().decode(m.payload);
const bytes = (s: string) => new TextEncoder().encode(s);

let mosquitto: PrivateMosquitto;
let admin: DynsecAdmin;
let everything: TestClient;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  mosquitto = await startPrivateMosquitto();
  admin = await DynsecAdmin.connect({ url: mosquitto.url, ...mosquitto.admin });
  await admin.setupServer(SERVER.username, SERVER.password, null);
  await admin.addAgent(R, 'pw-researcher');
  everything = await connectClient(mosquitto.url, { ...mosquitto.admin, clientId: 'watch-everything' });
  await everything.client.subscribeAsync('#', { qos: 1 });
});

afterAll(async () => {
  await everything?.client.endAsync(true);
  await admin?.close();
  await mosquitto?.stop();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function port(options: Partial<ExternalBrokerOptions> = {}): Promise<ExternalBroker> {
  const broker = await ExternalBroker.connect({
    url: mosquitto.url,
    ...SERVER,
    clientId: uniqueClientId('port-test'),
    log: () => undefined,
    ...options,
  });
  open.push(broker);
  return broker;
}

async function agent(): Promise<TestClient> {
  const c = await connectClient(mosquitto.url, { username: R, password: 'pw-researcher', clientId: R });
  open.push({ close: () => c.client.endAsync(true) });
  return c;
}

/** Polls until `done` holds; fails after 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error(`still not so after 10 s: ${done.toString()}`);
  }
}

/** Resolves with everything `broker` handed to handlers up to the first payload containing `marker`. */
function collect(broker: ExternalBroker, filter = 'rooms/#') {
  const seen: BrokerMessage[] = [];
  const waiters: { marker: string; resolve: (m: BrokerMessage[]) => void }[] = [];
  broker.onMessage(filter, (m) => {
    seen.push(m);
    for (const w of [...waiters]) {
      if (!decode(m).includes(w.marker)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve([...seen]);
    }
  });
  return {
    seen,
    until: (marker: string) =>
      new Promise<BrokerMessage[]>((resolve) => {
        const i = seen.findIndex((m) => decode(m).includes(marker));
        if (i >= 0) resolve(seen.slice(0, i + 1));
        else waiters.push({ marker, resolve });
      }),
  };
}

describe('normalizeCandidate', () => {
  it.each([
    ['rooms/r1/public_candidates/agent.x', { topic: 'rooms/r1/public_candidates', agentId: 'agent.x' }],
    ['rooms/r1/public_candidates', undefined],
    ['rooms/r1/public_candidates/a/b', undefined],
    ['rooms/r1/public/agent.x', undefined],
    ['rooms/+/public_candidates/agent.x', undefined],
  ])('%s', (topic, expected) => {
    expect(normalizeCandidate(topic)).toEqual(expected);
  });
});

describe('ExternalBroker over Mosquitto', () => {
  it("hands a candidate on as the spec's topic, published by the agent its subtopic names; other topics have no publisher", async () => {
    const broker = await port();
    const got = collect(broker);
    const a = await agent();
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'candidate-1', { qos: 1 });
    await a.client.publishAsync(`rooms/r1/agents/${R}/heartbeat`, 'heartbeat-1', { qos: 1 });
    const seen = await got.until('heartbeat-1');
    expect(seen.map((m) => [m.topic, decode(m), m.publisher])).toEqual([
      ['rooms/r1/public_candidates', 'candidate-1', { kind: 'agent', agentId: R }],
      [`rooms/r1/agents/${R}/heartbeat`, 'heartbeat-1', null],
    ]);
  });

  it('hands its own publishes to its handlers once, without publisher, and never to beforeDispatch', async () => {
    const recorded: string[] = [];
    const broker = await port({ beforeDispatch: (m) => void recorded.push(decode(m)) });
    const got = collect(broker);
    await broker.publish('rooms/r1/public', bytes('own-1'));
    // Anything the broker echoed would be queued on this connection before the agent's sentinel.
    const a = await agent();
    await a.client.publishAsync(`rooms/r1/agents/${R}/heartbeat`, 'sentinel-own', { qos: 1 });
    const seen = await got.until('sentinel-own');
    expect(seen.map((m) => [m.topic, decode(m), m.publisher])).toEqual([
      ['rooms/r1/public', 'own-1', null],
      [`rooms/r1/agents/${R}/heartbeat`, 'sentinel-own', null],
    ]);
    expect(recorded).toEqual(['sentinel-own']);
    await everything.until('rooms/r1/public', 'own-1'); // and other subscribers got it
  });

  it('runs beforeDispatch before any handler, and drops what it refuses', async () => {
    const order: string[] = [];
    const broker = await port({
      beforeDispatch: (m) => {
        order.push(`recorded ${decode(m)}`);
        if (decode(m) === 'refuse-me') throw new RefusedPublish('unknown_room');
      },
    });
    broker.onMessage('rooms/#', (m) => order.push(`handled ${decode(m)}`));
    const got = collect(broker);
    const a = await agent();
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'refuse-me', { qos: 1 });
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'keep-me', { qos: 1 });
    await got.until('keep-me');
    expect(order).toEqual(['recorded refuse-me', 'recorded keep-me', 'handled keep-me']);
  });

  it('does not acknowledge a message beforeDispatch failed on: the broker delivers it again after the reconnect', async () => {
    let failures = 0;
    const broker = await port({
      sessionExpirySeconds: 300,
      backoff: { minMs: 10, maxMs: 100 },
      beforeDispatch: (m) => {
        if (decode(m) === 'flaky' && failures++ === 0) throw new Error('database unavailable');
      },
    });
    const got = collect(broker);
    const a = await agent();
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'flaky', { qos: 1 });
    const seen = await got.until('flaky');
    expect(failures).toBe(2);
    expect(seen.filter((m) => decode(m) === 'flaky')).toHaveLength(1);
  });

  it('turns Nagle off on its connection to the broker (PUBACKs and hand-overs are small writes)', async () => {
    const setNoDelay = vi.spyOn(Socket.prototype, 'setNoDelay');
    const brokerPort = Number(new URL(mosquitto.url).port);
    let toBroker: { socket: Socket; args: Parameters<Socket['setNoDelay']> }[];
    try {
      await port();
      toBroker = setNoDelay.mock.contexts
        .map((socket, i) => ({ socket: socket as Socket, args: setNoDelay.mock.calls[i]! }))
        .filter(({ socket }) => socket.remotePort === brokerPort);
    } finally {
      setNoDelay.mockRestore(); // (which also forgets the calls)
    }
    expect(toBroker.length).toBeGreaterThan(0);
    // setNoDelay() without an argument enables it too; false (or no call at all) fails.
    expect(toBroker.at(-1)!.args[0] ?? true).toBe(true);
  });

  it('takes the next message while earlier ones are being recorded, and acknowledges none before its hook settled', async () => {
    // One client id for three connections in turn: the broker keeps its session between them.
    const clientId = uniqueClientId('port-test');
    const connect = (beforeDispatch: NonNullable<ExternalBrokerOptions['beforeDispatch']>) =>
      ExternalBroker.connect({
        url: mosquitto.url,
        ...SERVER,
        clientId,
        sessionExpirySeconds: 300,
        log: () => undefined,
        beforeDispatch,
      });
    const started: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = await connect(async (m) => {
      started.push(decode(m));
      await held;
    });
    const a = await agent();
    const sent = ['m1', 'm2', 'm3', 'm4', 'm5'];
    for (const m of sent) a.client.publish(agentCandidateTopic('r1', R), m, { qos: 1 });
    // Pipelined: every hook starts while the first is still waiting (one at a time, only m1 would).
    await until(() => started.length === sent.length);
    expect(started).toEqual(sent);
    // None is acknowledged while its hook runs: this connection ends without a PUBACK for any...
    await first.close();
    release();
    // ...so the broker hands all five to the next connection of this session, in order.
    const again: string[] = [];
    const second = await connect((m) => void again.push(decode(m)));
    await until(() => again.length === sent.length);
    expect(again).toEqual(sent);
    await second.close();
    // Acknowledged now that the hooks settled: a third connection gets only what is new.
    const third: string[] = [];
    open.push(await connect((m) => void third.push(decode(m))));
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'm6', { qos: 1 });
    await until(() => third.length > 0);
    expect(third).toEqual(['m6']);
  });

  it('refuses a retained publish (never handled) and clears it from the broker', async () => {
    const broker = await port();
    const got = collect(broker);
    const topic = `rooms/r1/agents/${R}/work`;
    const cleared = new Promise<void>((resolve) => {
      everything.client.on('message', (t, payload) => {
        if (t === topic && payload.length === 0) resolve();
      });
    });
    const a = await agent();
    await a.client.publishAsync(topic, 'retained-1', { qos: 1, retain: true });
    await a.client.publishAsync(topic, 'after-retained', { qos: 1 });
    const seen = await got.until('after-retained');
    expect(seen.map(decode)).toEqual(['after-retained']);
    await cleared;
    // A new subscriber gets retained messages right after SUBACK: the sentinel comes first only if there is none.
    const late = await connectClient(mosquitto.url, { ...mosquitto.admin, clientId: 'late-subscriber' });
    open.push({ close: () => late.client.endAsync(true) });
    await late.client.subscribeAsync(topic, { qos: 1 });
    await a.client.publishAsync(topic, 'sentinel-late', { qos: 1 });
    const lateSeen = await late.until(topic, 'sentinel-late');
    expect(lateSeen.map((m) => m.payload)).toEqual(['sentinel-late']);
  });

  it('reconnects with backoff after the broker drops it, with its session and what queued meanwhile', async () => {
    const statuses: string[] = [];
    let back!: () => void;
    const reconnected = new Promise<void>((resolve) => (back = resolve));
    let gone!: () => void;
    const dropped = new Promise<void>((resolve) => (gone = resolve));
    const broker = await port({
      sessionExpirySeconds: 300,
      backoff: { minMs: 10, maxMs: 200 },
      onStatus: (s) => {
        statuses.push(s.connected ? `connected${s.sessionPresent ? ' (session kept)' : ''}` : 'disconnected');
        if (s.connected) back();
        else gone();
      },
    });
    const got = collect(broker);
    // Disabling the server's client kicks it and refuses it until it is enabled again.
    await admin.send([{ command: 'disableClient', username: SERVER.username }]);
    await dropped;
    expect(broker.connected).toBe(false);
    const a = await agent();
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'while-away', { qos: 1 });
    await admin.send([{ command: 'enableClient', username: SERVER.username }]);
    await reconnected;
    const seen = await got.until('while-away');
    expect(seen.at(-1)?.publisher).toEqual({ kind: 'agent', agentId: R });
    expect(statuses[0]).toBe('disconnected');
    expect(statuses).toContain('connected (session kept)');
  });

  it.each([
    ['a wrong password', () => ({ password: 'wrong' }), 'BROKER_AUTH_FAILED'],
    ['a closed port', () => ({ url: 'mqtt://127.0.0.1:1' }), 'BROKER_UNREACHABLE'],
  ])('refuses to start with %s, as a coded error', async (_label, over, code) => {
    await expect(
      ExternalBroker.connect({
        url: mosquitto.url,
        ...SERVER,
        clientId: uniqueClientId('bad'),
        log: () => undefined,
        ...over(),
      }),
    ).rejects.toMatchObject({ code });
  });
});

describe('ExternalBroker clustered (shareGroup)', () => {
  /** A clustered port whose hooks note what they ran for. */
  async function member(credential = SERVER) {
    const recorded: string[] = [];
    const admitted: string[] = [];
    const once: string[] = [];
    const broker = await port({
      ...credential,
      shareGroup: GATEWAY_SHARE_GROUP,
      beforeDispatch: (m) => void recorded.push(decode(m)),
      admit: (m) => {
        if (decode(m).startsWith('refuse')) throw new RefusedPublish('unknown_room');
        admitted.push(decode(m));
      },
    });
    broker.onMessage('rooms/#', (m) => void once.push(decode(m)), { shared: true });
    return { broker, recorded, admitted, once, all: collect(broker) };
  }

  it("records and decides each agent message on one member; every member's consoles see it; a member's own publish is recorded by none", async () => {
    const [x, y] = [await member(), await member()];
    const a = await agent();
    const sent = Array.from({ length: 6 }, (_, i) => `cand-${i}`);
    for (const text of [...sent, 'refuse-me'])
      await a.client.publishAsync(agentCandidateTopic('r1', R), text, { qos: 1 });
    await x.broker.publish('rooms/r1/public', bytes('from-x'));
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'sentinel', { qos: 1 });
    await Promise.all([x.all.until('sentinel'), y.all.until('sentinel'), x.all.until('from-x'), y.all.until('from-x')]);
    while (![...x.recorded, ...y.recorded].includes('sentinel')) await new Promise((resolve) => setTimeout(resolve, 5));
    // Recorded once in all (the shared copy), by both members between them.
    expect([...x.recorded, ...y.recorded].filter((t) => t.startsWith('cand-')).sort()).toEqual(sent);
    expect(x.recorded.some((t) => t.startsWith('cand-')) && y.recorded.some((t) => t.startsWith('cand-'))).toBe(true);
    // The once-per-cluster handlers saw exactly what their member recorded, plus x's own publish on x.
    expect(x.once.filter((t) => t.startsWith('cand-'))).toEqual(x.recorded.filter((t) => t.startsWith('cand-')));
    expect(y.once.filter((t) => t.startsWith('cand-'))).toEqual(y.recorded.filter((t) => t.startsWith('cand-')));
    expect([x.once.includes('from-x'), y.once.includes('from-x')]).toEqual([true, false]);
    // Every member's other handlers saw every admitted candidate, once, and x's publish, once.
    for (const m of [x, y]) {
      const texts = m.all.seen.map(decode);
      expect(texts.filter((t) => t.startsWith('cand-'))).toEqual(sent);
      expect(texts.filter((t) => t === 'from-x')).toHaveLength(1);
      expect(texts).not.toContain('refuse-me');
    }
    expect([...x.recorded, ...y.recorded]).not.toContain('from-x');
  });

  it('leaves the shared subscription when asked: the other member then gets every agent message', async () => {
    const [x, y] = [await member(), await member()];
    await x.broker.leaveShareGroup();
    const a = await agent();
    const sent = Array.from({ length: 4 }, (_, i) => `after-leave-${i}`);
    for (const text of sent) await a.client.publishAsync(agentCandidateTopic('r1', R), text, { qos: 1 });
    await x.all.until(sent.at(-1)!);
    while (!y.recorded.includes(sent.at(-1)!)) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(y.recorded.filter((t) => t.startsWith('after-leave-'))).toEqual(sent);
    expect(x.recorded.filter((t) => t.startsWith('after-leave-'))).toEqual([]);
  });

  it('a broker role without the $share permission (set up before clusters): records and decides every message itself', async () => {
    const role = 'switchboard-server-old';
    await admin.ensureRole(
      role,
      SERVER_ACLS.filter((acl) => !acl.topic.startsWith('$share/')),
    );
    await admin.send([
      { command: 'createClient', username: 'server-old', password: 'pw-old', roles: [{ rolename: role, priority: 0 }] },
    ]);
    const old = await member({ username: 'server-old', password: 'pw-old' });
    const a = await agent();
    await a.client.publishAsync(agentCandidateTopic('r1', R), 'old-role', { qos: 1 });
    await old.all.until('old-role');
    expect(old.recorded).toContain('old-role');
    expect(old.once).toContain('old-role');
  });
});
