// Gateway.recover (decisions-server.md §20): a candidate stored and acknowledged but not decided when the
// server stopped is decided at the next start, exactly once, even when its live copy arrives too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryRecorder } from '../rooms/history-recorder';
import { startRoomHarness, type RoomHarness } from '../test-support/room-harness';

let h: RoomHarness;
let w: Awaited<ReturnType<RoomHarness['watcher']>>;
const AGENT = 'agent.researcher';
const nowS = () => Math.floor(h.clock.now / 1000);
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const candidate = (id: string, messageType = 'progress') => ({
  id,
  type: 'result',
  room_id: 'r1',
  from: { kind: 'agent', id: AGENT },
  ts: nowS(),
  payload: {
    task_id: 'task_1',
    message_type: messageType,
    content: messageType === 'finding' ? { bullets: ['x'] } : { text: 'working' },
  },
});

/** What the broker's beforeRoute does for an agent's candidate, without routing it to the gateway. */
async function storeOnly(envelope: unknown) {
  const recorder = new HistoryRecorder(h.store, h.rooms);
  await recorder.record({
    topic: 'rooms/r1/public_candidates',
    payload: encode(envelope),
    publisher: { kind: 'agent', agentId: AGENT },
    receivedAt: h.clock.now,
  });
}

async function grant() {
  const g = {
    id: 'grant_1',
    type: 'mic_grant',
    room_id: 'r1',
    from: { kind: 'user', id: 'did:key:z6MkF' },
    ts: nowS(),
    payload: {
      task_id: 'task_1',
      agent_id: AGENT,
      max_messages: 10,
      allowed_message_types: ['progress'],
      expires_at: nowS() + 600,
    },
  };
  await h.facilitatorPublish('rooms/r1/control', g);
  for (let i = 0; i < 1_000 && !(await h.store.rooms.getGrant('r1', AGENT, 'task_1')); i++)
    await new Promise((r) => setImmediate(r));
}

beforeEach(async () => {
  h = await startRoomHarness();
  await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
  w = await h.watcher();
  await grant();
});
afterEach(() => h.close());

describe('Gateway.recover', () => {
  it('approves or rejects each undecided candidate once, in order, and leaves decided ones alone', async () => {
    const decided = candidate('cand_decided');
    const agent = await h.agent(AGENT);
    await agent.client.publishAsync('rooms/r1/public_candidates', JSON.stringify(decided), { qos: 1 });
    await w.until('rooms/r1/public', decided.id);
    await storeOnly(candidate('cand_a'));
    await storeOnly(candidate('cand_b', 'finding'));
    await storeOnly(candidate('cand_c'));

    expect(await h.gateway.recover()).toBe(3);
    expect(
      w.received.filter((m) => m.topic === 'rooms/r1/public').map((m) => (JSON.parse(m.payload) as { id: string }).id),
    ).toEqual(['cand_decided', 'cand_a', 'cand_c']);
    const rejects = w.received.filter((m) => m.topic === 'rooms/r1/control' && m.payload.includes('"reject"'));
    expect(
      rejects.map((m) => (JSON.parse(m.payload) as { payload: { message_id: string; reason: string } }).payload),
    ).toEqual([expect.objectContaining({ message_id: 'cand_b', reason: 'message_type_not_allowed' })]);
    expect((await h.store.rooms.getGrant('r1', AGENT, 'task_1'))?.spent).toBe(3);
    // A second start finds nothing left.
    expect(await h.gateway.recover()).toBe(0);
  });

  it('decides a candidate once when recovery and its live copy both see it', async () => {
    const c = candidate('cand_twice');
    await storeOnly(c);
    expect(await h.gateway.recover()).toBe(1);
    // The same bytes routed live (as when the broker accepted it just before recovery ran).
    await h.broker.publish('rooms/r1/public_candidates', encode(c));
    const agent = await h.agent(AGENT);
    const probe = candidate('cand_probe');
    await agent.client.publishAsync('rooms/r1/public_candidates', JSON.stringify(probe), { qos: 1 });
    await w.until('rooms/r1/public', probe.id);
    expect(w.received.filter((m) => m.topic === 'rooms/r1/public' && m.payload.includes('cand_twice'))).toHaveLength(1);
    expect(w.received.filter((m) => m.topic === 'rooms/r1/control' && m.payload.includes('cand_twice'))).toEqual([]);
    expect((await h.store.rooms.getGrant('r1', AGENT, 'task_1'))?.spent).toBe(2);
  });
});
