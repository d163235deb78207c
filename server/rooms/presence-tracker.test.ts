// Presence through a real broker: heartbeats over MQTT make an agent online, missed intervals
// make it stale, its last will or a lost connection makes it offline at once; every change is
// announced on the console topic.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedBroker } from '../mqtt/embedded-broker';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { PresenceTracker, presenceTopicOf } from './presence-tracker';

let broker: EmbeddedBroker;
let tracker: PresenceTracker;
let url: string;
const clock = { now: 1_000_000 };
const announced: { status: string; agentId: string }[] = [];
const clients: TestClient[] = [];

beforeEach(async () => {
  announced.length = 0;
  broker = await EmbeddedBroker.create({ verifyAgent: async () => true, now: () => clock.now });
  tracker = new PresenceTracker(broker, () => clock.now);
  broker.onMessage(presenceTopicOf('r1'), (m) => {
    const { agent } = JSON.parse(new TextDecoder().decode(m.payload)) as { agent: { status: string; agentId: string } };
    announced.push({ status: agent.status, agentId: agent.agentId });
  });
  url = `mqtt://127.0.0.1:${(await broker.listenTcp('127.0.0.1', 0)).port}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.client.endAsync(true).catch(() => undefined)));
  tracker.stop();
  await broker.close();
});

const heartbeat = (agentId: string, payload: object) =>
  JSON.stringify({
    id: `hb_${Math.random()}`,
    type: 'heartbeat',
    room_id: 'r1',
    from: { kind: 'agent', id: agentId },
    ts: Math.floor(clock.now / 1000),
    payload,
  });

async function agentWithWill(agentId: string): Promise<TestClient> {
  const c = await connectClient(url, {
    username: agentId,
    password: 'x',
    will: {
      topic: `rooms/r1/agents/${agentId}/heartbeat`,
      payload: Buffer.from(heartbeat(agentId, { ts: 0, status: 'offline' })),
      qos: 1,
      retain: false,
    },
  });
  clients.push(c);
  return c;
}

describe('presence', () => {
  it('is online after a heartbeat, with its description, and stale after three missed intervals', async () => {
    const a = await agentWithWill('agent.a');
    await a.client.publishAsync(
      'rooms/r1/agents/agent.a/heartbeat',
      heartbeat('agent.a', { ts: 1, description: 'Researcher' }),
      { qos: 1 },
    );
    expect(tracker.list('r1')).toMatchObject([
      { agentId: 'agent.a', status: 'online', description: 'Researcher', lastSeenAt: 1_000_000 },
    ]);
    clock.now += 15_000;
    tracker.sweep();
    expect(tracker.list('r1')[0]?.status).toBe('online');
    clock.now += 1;
    tracker.sweep();
    expect(tracker.list('r1')[0]?.status).toBe('stale');
    expect(announced).toEqual([
      { agentId: 'agent.a', status: 'online' },
      { agentId: 'agent.a', status: 'stale' },
    ]);
  });

  it('is offline at once through the MQTT last will when the connection dies', async () => {
    const a = await agentWithWill('agent.b');
    await a.client.publishAsync('rooms/r1/agents/agent.b/heartbeat', heartbeat('agent.b', { ts: 1 }), { qos: 1 });
    const offline = new Promise<void>((resolve) =>
      broker.onMessage(
        presenceTopicOf('r1'),
        (m) => new TextDecoder().decode(m.payload).includes('"offline"') && resolve(),
      ),
    );
    a.client.stream.destroy(); // no DISCONNECT: the broker publishes the will
    await offline;
    expect(tracker.list('r1')[0]?.status).toBe('offline');
  });

  it('marks an agent offline when the broker loses its connection, even without a will', () => {
    broker.onMessage('#', () => undefined);
    void broker.publish('rooms/r1/agents/agent.c/heartbeat', new TextEncoder().encode(heartbeat('agent.c', { ts: 1 })));
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      expect(tracker.list('r1')[0]?.status).toBe('online');
      tracker.disconnected('agent.c');
      expect(tracker.list('r1')[0]?.status).toBe('offline');
    });
  });

  it('ignores heartbeats that are not heartbeat envelopes', async () => {
    const a = await agentWithWill('agent.d');
    await a.client.publishAsync('rooms/r1/agents/agent.d/heartbeat', '{"not":"an envelope"}', { qos: 1 });
    expect(tracker.list('r1')).toEqual([]);
  });

  it('agentStatus gives the directory the best presence across rooms, undefined for an unknown agent', async () => {
    broker.onMessage('#', () => undefined);
    const hb = (room: string) =>
      JSON.stringify({
        id: `hb_${room}`,
        type: 'heartbeat',
        room_id: room,
        from: { kind: 'agent', id: 'agent.e' },
        ts: 1,
        payload: { ts: 1 },
      });
    void broker.publish('rooms/r1/agents/agent.e/heartbeat', new TextEncoder().encode(hb('r1')));
    await new Promise<void>((resolve) => setImmediate(resolve));
    clock.now += 60_000;
    void broker.publish('rooms/r2/agents/agent.e/heartbeat', new TextEncoder().encode(hb('r2')));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(tracker.agentStatus('agent.e')).toMatchObject({ roomId: 'r2', status: 'online', lastSeenAt: clock.now });
    tracker.disconnected('agent.e');
    expect(tracker.agentStatus('agent.e')?.status).toBe('offline');
    expect(tracker.agentStatus('nobody')).toBeUndefined();
  });
});
