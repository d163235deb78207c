// MQTT attacks: ACL bypass attempts through real clients against the embedded broker
// and the gateway. Only what server/mqtt/embedded-broker.test.ts and server/gateway/*.test.ts do
// not already show is here: wider wildcards, `$share` onto other agents' topics, retained
// messages planted for later subscribers, client-id takeover across kinds and protocol
// versions, a forged `from` on the agent's own topics, and grants injected across rooms.
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresenceTracker } from '../rooms/presence-tracker';
import { connectClient, subscribeCode, tryConnect, type TestClient } from '../test-support/mqtt-clients';
import { PASSWORD, startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { connectOperator, type OperatorClient } from './facilitator-client';

const FACILITATOR = 'did:key:z6MkAttackFacilitator';
let h: RoomHarness;
let w: Awaited<ReturnType<RoomHarness['watcher']>>;
let facilitator: OperatorClient;
let presence: PresenceTracker;
let seq = 0;
const nowS = () => Math.floor(h.clock.now / 1000);
const json = (value: unknown) => JSON.stringify(value);

const grant = (roomId: string, taskId: string, agentId = 'agent.victim') => ({
  id: `grant_${++seq}`,
  type: 'mic_grant',
  room_id: roomId,
  from: { kind: 'user', id: FACILITATOR },
  ts: nowS(),
  payload: {
    task_id: taskId,
    agent_id: agentId,
    max_messages: 5,
    allowed_message_types: ['progress'],
    expires_at: nowS() + 600,
  },
});

/** Everything `client` received before a sentinel published afterwards on an allowed path. */
async function receivedBefore(client: TestClient, marker: string): Promise<string[]> {
  await h.broker.publish('rooms/r1/public', new TextEncoder().encode(json({ sentinel: marker })));
  return (await client.until('rooms/r1/public', marker))
    .map((r) => `${r.topic} ${r.payload}`)
    .filter((r) => !r.includes(marker));
}

beforeAll(async () => {
  h = await startRoomHarness();
  await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
  await h.rooms.create({ id: 'r2', name: 'Room two', moderation: 'auto' });
  w = await h.watcher();
  presence = new PresenceTracker(h.broker, () => h.clock.now);
  facilitator = await connectOperator(h.broker, FACILITATOR);
});

afterAll(async () => {
  presence.stop();
  await facilitator.close();
  await h.close();
});

describe("wildcard and shared subscriptions onto other agents' topics", () => {
  it.each([
    'rooms/+/agents/#',
    'rooms/r1/agents/+/+',
    'rooms/r1/agents/agent.victim/#',
    'rooms/r1/agents/agent.attacker/+', // its own work is not readable either (§8)
    '+/+/agents/agent.victim/inbox',
    '$share/g/rooms/+/agents/+/inbox',
    '$share/g/rooms/r1/agents/agent.victim/work',
    '$share/g/rooms/+/public',
    '$SYS/#',
    '$SYS/+/clients/#',
  ])("refuses %s: SUBACK fails and the victim's inbox and work never arrive", async (filter) => {
    const attacker = await h.agent('agent.attacker');
    await attacker.client.subscribeAsync('rooms/+/public', { qos: 1 });
    expect(await subscribeCode(attacker.client, filter)).toBeGreaterThanOrEqual(0x80);
    const victim = await h.agent('agent.victim');
    await victim.client.publishAsync('rooms/r1/agents/agent.victim/work', 'victim-work', { qos: 1 });
    await facilitator.client
      .publishAsync(
        'rooms/r1/agents/agent.victim/inbox',
        json({
          id: `task_${++seq}`,
          type: 'task',
          room_id: 'r1',
          from: { kind: 'user', id: FACILITATOR },
          ts: nowS(),
          payload: { task_id: 'secret_task', agent_id: 'agent.victim', instructions: 'victim-inbox' },
        }),
        { qos: 1 },
      )
      .catch(() => undefined);
    const leaked = await receivedBefore(attacker, filter);
    expect(leaked.filter((r) => r.includes('victim-'))).toEqual([]);
    expect(leaked).toEqual([]);
  });
});

describe('retained messages', () => {
  it('plant nothing: a retained candidate, heartbeat or facilitator say is refused, and a later subscriber gets no replay', async () => {
    const agent = await h.agent('agent.planter');
    for (const topic of [
      'rooms/r1/public_candidates',
      'rooms/r1/agents/agent.planter/heartbeat',
      'rooms/r1/agents/agent.planter/work',
    ]) {
      await expect(agent.client.publishAsync(topic, 'planted', { qos: 1, retain: true })).rejects.toThrow();
    }
    const say = {
      id: `say_${++seq}`,
      type: 'say',
      room_id: 'r1',
      from: { kind: 'user', id: FACILITATOR },
      ts: nowS(),
      payload: { text: 'planted' },
    };
    await expect(
      facilitator.client.publishAsync('rooms/r1/public', json(say), { qos: 1, retain: true }),
    ).rejects.toThrow();
    // A subscriber that arrives afterwards: retained messages are sent at SUBSCRIBE, before the sentinel.
    const later = await h.agent('agent.later');
    await later.client.subscribeAsync(['rooms/+/public', 'rooms/+/control'], { qos: 1 });
    expect(await receivedBefore(later, 'retained-probe')).toEqual([]);
    expect(w.received.filter((m) => m.payload.includes('planted'))).toEqual([]);
    expect(
      (await h.store.rooms.listMessages({ roomId: 'r1', limit: 10_000 })).messages.filter((m) =>
        new TextDecoder().decode(m.payload).includes('planted'),
      ),
    ).toEqual([]);
  });
});

describe('client-id takeover', () => {
  it.each([4, 5] as const)(
    "refuses another agent taking a connected agent's client id over MQTT v%i; the holder keeps its connection",
    async (protocolVersion) => {
      const held = `agent.holder/held-${protocolVersion}`;
      const holder = await connectClient(h.url, {
        username: 'agent.holder',
        password: PASSWORD,
        clientId: held,
        protocolVersion: 5,
      });
      const result = await tryConnect(h.url, {
        username: 'agent.thief',
        password: PASSWORD,
        clientId: held,
        protocolVersion,
      });
      expect(result).toMatch(/Not authorized/i);
      expect(holder.client.connected).toBe(true);
      await holder.client.publishAsync('rooms/r1/agents/agent.holder/work', `still-here-${protocolVersion}`, {
        qos: 1,
      });
      await w.until('rooms/r1/agents/agent.holder/work', `still-here-${protocolVersion}`);
      await holder.client.endAsync(true);
    },
  );

  it("refuses an operator's WebSocket connection taking an agent's client id", async () => {
    const holder = await connectClient(h.url, {
      username: 'agent.holder',
      password: PASSWORD,
      clientId: 'agent.holder',
    });
    const operator = await connectOperator(h.broker, 'did:key:z6MkOtherOperator', { clientId: 'agent.holder' }).then(
      async (o) => {
        await o.close();
        return 'connected';
      },
      (error: Error) => error.message,
    );
    expect(operator).toMatch(/Not authorized/i);
    expect(holder.client.connected).toBe(true);
    await holder.client.endAsync(true);
  });
});

describe('persistent-session takeover', () => {
  const inbox = 'rooms/r1/agents/agent.owner/inbox';
  /** Agent A's session (clean: false) with one QoS 1 inbox message queued while A is away. */
  async function queuedForOwner(marker: string) {
    const owner = await connectClient(h.url, {
      username: 'agent.owner',
      password: PASSWORD,
      clientId: 'agent.owner',
      clean: false,
      protocolVersion: 4,
    });
    await owner.client.subscribeAsync(inbox, { qos: 1 });
    await owner.client.endAsync();
    await h.broker.publish(inbox, new TextEncoder().encode(json({ queued: marker })), 1);
  }

  it.each([
    ["agent A's client id", 'agent.owner'],
    ["a client id under agent A's", 'agent.owner/second'],
    ["the server's client id", 'switchboard-server'],
    ["an operator's client id", `${FACILITATOR}/console`],
  ])(
    "refuses agent B with valid credentials on %s (CONNACK not authorized); B never gets A's queued messages, A does",
    async (_label, clientId) => {
      const marker = `queued-${clientId}`;
      await queuedForOwner(marker);
      const got: string[] = [];
      const thief = await mqtt
        .connectAsync(h.url, {
          username: 'agent.thief',
          password: PASSWORD,
          clientId,
          clean: false,
          protocolVersion: 4,
          reconnectPeriod: 0,
        })
        .then(
          async (client) => {
            // Whatever the session held arrives before a sentinel sent on it afterwards.
            const sentinel = new Promise<void>((resolve) =>
              client.on('message', (_topic, payload) =>
                payload.toString().includes('sentinel') ? resolve() : void got.push(payload.toString()),
              ),
            );
            await h.broker.publish(inbox, new TextEncoder().encode(json({ sentinel: marker })), 1);
            await sentinel;
            await client.endAsync(true);
            return 'connected';
          },
          (error: Error) => error.message,
        );
      expect(thief).toMatch(/Not authorized/i);
      expect(got).toEqual([]);
      // The broker sends the queued message right after CONNACK: listen before connecting.
      const owner = mqtt.connect(h.url, {
        username: 'agent.owner',
        password: PASSWORD,
        clientId: 'agent.owner',
        clean: false,
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      await new Promise<void>((resolve) =>
        owner.on('message', (_topic, payload) => payload.toString().includes(marker) && resolve()),
      );
      await owner.endAsync(true);
    },
  );

  it("refuses an operator on an agent's client id, and an agent on the console's", async () => {
    const operator = await connectOperator(h.broker, 'did:key:z6MkOtherOperator', { clientId: 'agent.owner' }).then(
      async (o) => {
        await o.close();
        return 'connected';
      },
      (error: Error) => error.message,
    );
    expect(operator).toMatch(/Not authorized/i);
    expect(
      await tryConnect(h.url, {
        username: 'agent.thief',
        password: PASSWORD,
        clientId: 'did:key:z6MkOtherOperator/console',
        protocolVersion: 5,
      }),
    ).toMatch(/Not authorized/i);
  });

  it("lets each identity use its own: the agent id, ids under it, the console's DID namespace and server-assigned ids", async () => {
    for (const clientId of ['agent.owner', 'agent.owner/worker-1', '']) {
      expect(
        await tryConnect(h.url, { username: 'agent.owner', password: PASSWORD, clientId, protocolVersion: 5 }),
      ).toBe('connected');
    }
    for (const clientId of [`did:key:z6MkOtherOperator/console`, '']) {
      const operator = await connectOperator(h.broker, 'did:key:z6MkOtherOperator', { clientId });
      await operator.close();
    }
  });
});

describe("a facilitator's publish is read strictly", () => {
  const say = (marker: string, roomId = 'r1') => ({
    id: `say_${++seq}`,
    type: 'say',
    room_id: roomId,
    from: { kind: 'user', id: FACILITATOR },
    ts: nowS(),
    payload: { text: marker },
  });
  const stored = async (marker: string) =>
    (await h.store.rooms.listMessages({ roomId: 'r1', limit: 10_000 })).messages.filter((m) =>
      new TextDecoder().decode(m.payload).includes(marker),
    );

  it.each([
    // JSON.parse keeps the last `type`: checked as a say, read elsewhere as the first.
    [
      'a duplicated key',
      (marker: string) => json(say(marker)).replace('"type":"say"', '"type":"mic_grant","type":"say"'),
    ],
    [
      'a duplicated room_id',
      (marker: string) => json(say(marker)).replace('"room_id":"r1"', '"room_id":"r2","room_id":"r1"'),
    ],
    ["a room_id other than the topic's", (marker: string) => json(say(marker, 'r2'))],
  ])('refuses %s; nothing is delivered or stored', async (_label, payload) => {
    const marker = `strict-${++seq}`;
    await expect(facilitator.client.publishAsync('rooms/r1/public', payload(marker), { qos: 1 })).rejects.toThrow(
      /Not authorized|invalid_envelope|room_mismatch/i,
    );
    expect(await receivedBefore(w, `after-${marker}`)).not.toContainEqual(expect.stringContaining(marker));
    expect(await stored(marker)).toEqual([]);
  });

  it("still routes a well-formed say for the topic's room", async () => {
    const marker = `strict-ok-${++seq}`;
    await facilitator.client.publishAsync('rooms/r1/public', json(say(marker)), { qos: 1 });
    await w.until('rooms/r1/public', marker);
    expect(await stored(marker)).toHaveLength(1);
  });
});

describe('a forged `from`', () => {
  it("on a candidate is rejected with sender_mismatch and spends the named agent's budget not at all", async () => {
    await facilitator.client.publishAsync('rooms/r1/control', json(grant('r1', 'forged_task')), { qos: 1 });
    for (let i = 0; i < 10_000 && !(await h.store.rooms.getGrant('r1', 'agent.victim', 'forged_task')); i++)
      await new Promise((r) => setImmediate(r));
    const attacker = await h.agent('agent.attacker');
    const forged = {
      id: `forged_${++seq}`,
      type: 'result',
      room_id: 'r1',
      from: { kind: 'agent', id: 'agent.victim' },
      ts: nowS(),
      payload: { task_id: 'forged_task', message_type: 'progress', content: { text: 'in your name' } },
    };
    await attacker.client.publishAsync('rooms/r1/public_candidates', json(forged), { qos: 1 });
    const seen = await w.until('rooms/r1/control', `"message_id":"${forged.id}"`);
    expect(JSON.parse(seen.at(-1)!.payload)).toMatchObject({ type: 'reject', payload: { reason: 'sender_mismatch' } });
    expect(w.received.filter((m) => m.topic === 'rooms/r1/public' && m.payload.includes(forged.id))).toEqual([]);
    expect((await h.store.rooms.getGrant('r1', 'agent.victim', 'forged_task'))?.spent).toBe(0);
  });

  it("on a heartbeat in the agent's own topic counts for the topic's agent, never for the one it names", async () => {
    const attacker = await h.agent('agent.attacker');
    const hb = {
      id: `hb_${++seq}`,
      type: 'heartbeat',
      room_id: 'r1',
      from: { kind: 'agent', id: 'agent.victim' },
      ts: nowS(),
      payload: { ts: nowS(), description: 'forged' },
    };
    await attacker.client.publishAsync('rooms/r1/agents/agent.attacker/heartbeat', json(hb), { qos: 1 });
    await w.until('rooms/r1/agents/agent.attacker/heartbeat', hb.id);
    expect(presence.list('r1').map((p) => p.agentId)).not.toContain('agent.victim');
  });

  it('from a facilitator naming another operator is refused by the broker (sender_mismatch) and grants nothing', async () => {
    const g = { ...grant('r1', 'other_operator'), from: { kind: 'user', id: 'did:key:z6MkSomeoneElse' } };
    await expect(facilitator.client.publishAsync('rooms/r1/control', json(g), { qos: 1 })).rejects.toThrow();
    await facilitator.client.publishAsync('rooms/r1/control', json(grant('r1', 'after_forgery')), { qos: 1 });
    for (let i = 0; i < 10_000 && !(await h.store.rooms.getGrant('r1', 'agent.victim', 'after_forgery')); i++)
      await new Promise((r) => setImmediate(r));
    expect(await h.store.rooms.getGrant('r1', 'agent.victim', 'other_operator')).toBeUndefined();
  });
});

describe('cross-room injection', () => {
  it("refuses a grant for room r2 published on r1's control topic: neither room gets the grant", async () => {
    await expect(
      facilitator.client.publishAsync('rooms/r1/control', json(grant('r2', 'cross_task')), { qos: 1 }),
    ).rejects.toThrow(/Not authorized/i);
    await facilitator.client.publishAsync('rooms/r1/control', json(grant('r1', 'cross_probe')), { qos: 1 });
    for (let i = 0; i < 10_000 && !(await h.store.rooms.getGrant('r1', 'agent.victim', 'cross_probe')); i++)
      await new Promise((r) => setImmediate(r));
    expect(await h.store.rooms.getGrant('r1', 'agent.victim', 'cross_task')).toBeUndefined();
    expect(await h.store.rooms.getGrant('r2', 'agent.victim', 'cross_task')).toBeUndefined();
  });

  it('spends no budget in r2 for a candidate naming r2 published on r1 (room_mismatch on r1, nothing on r2)', async () => {
    await facilitator.client.publishAsync('rooms/r2/control', json(grant('r2', 'r2_task', 'agent.attacker')), {
      qos: 1,
    });
    for (let i = 0; i < 10_000 && !(await h.store.rooms.getGrant('r2', 'agent.attacker', 'r2_task')); i++)
      await new Promise((r) => setImmediate(r));
    const attacker = await h.agent('agent.attacker');
    const c = {
      id: `x_${++seq}`,
      type: 'result',
      room_id: 'r2',
      from: { kind: 'agent', id: 'agent.attacker' },
      ts: nowS(),
      payload: { task_id: 'r2_task', message_type: 'progress', content: { text: 'smuggled' } },
    };
    await attacker.client.publishAsync('rooms/r1/public_candidates', json(c), { qos: 1 });
    const seen = await w.until('rooms/r1/control', `"message_id":"${c.id}"`);
    expect(JSON.parse(seen.at(-1)!.payload)).toMatchObject({ payload: { reason: 'room_mismatch' } });
    expect(w.received.filter((m) => m.topic.startsWith('rooms/r2/public'))).toEqual([]);
    expect((await h.store.rooms.getGrant('r2', 'agent.attacker', 'r2_task'))?.spent).toBe(0);
  });
});
