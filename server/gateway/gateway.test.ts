// The gateway through real parts: agents publish over MQTT to the embedded broker, decisions are
// stored in SQLite, and what reaches `public` and `control` is read back from the broker.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HistoryRecorder } from '../rooms/history-recorder';
import { startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { Gateway } from './gateway';

let h: RoomHarness;
/** Sees every message the broker routes, from before each test's first publish. */
let w: Awaited<ReturnType<RoomHarness['watcher']>>;
let seq = 0;
const nowS = () => Math.floor(h.clock.now / 1000);
// AOR §6 content for each message type the tests use.
const CONTENT: Record<string, unknown> = {
  progress: { text: 'working' },
  finding: { bullets: ['Option A is cheaper'] },
};
const F = { kind: 'user', id: 'did:key:z6MkFacilitator' } as const;

function candidate(
  over: { id?: string; room?: string; from?: string; task?: string; messageType?: string; type?: string } = {},
) {
  return {
    id: over.id ?? `cand_${++seq}`,
    type: over.type ?? 'result',
    room_id: over.room ?? 'r1',
    from: { kind: 'agent', id: over.from ?? 'agent.researcher' },
    ts: nowS(),
    payload: {
      task_id: over.task ?? 'task_1',
      message_type: over.messageType ?? 'progress',
      content: CONTENT[over.messageType ?? 'progress'],
    },
  };
}

function grant(over: { id?: string; task?: string; max?: number; types?: string[]; expiresIn?: number } = {}) {
  return {
    id: over.id ?? `grant_${++seq}`,
    type: 'mic_grant',
    room_id: 'r1',
    from: F,
    ts: nowS(),
    payload: {
      task_id: over.task ?? 'task_1',
      agent_id: 'agent.researcher',
      max_messages: over.max ?? 3,
      allowed_message_types: over.types ?? ['ack', 'progress', 'result'],
      expires_at: nowS() + (over.expiresIn ?? 600),
    },
  };
}

async function publishCandidate(body: unknown, agentId = 'agent.researcher'): Promise<string> {
  const agent = await h.agent(agentId);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  await agent.client.publishAsync('rooms/r1/public_candidates', text, { qos: 1 });
  return text;
}

async function grantAndWait(g = grant()) {
  await h.facilitatorPublish('rooms/r1/control', g);
  await w.until('rooms/r1/control', g.id);
  // The gateway handles control in order; wait until the grant is stored.
  for (let i = 0; i < 100 && !(await h.store.rooms.getGrant('r1', 'agent.researcher', g.payload.task_id)); i++)
    await new Promise((r) => setImmediate(r));
  return g;
}

async function rejectFor(messageId: string) {
  const seen = await w.until('rooms/r1/control', `"message_id":"${messageId}"`);
  return JSON.parse(seen.at(-1)!.payload) as {
    type: string;
    payload: { reason: string; message_id: string; task_id?: string };
  };
}

beforeEach(async () => {
  h = await startRoomHarness();
  await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
  await h.rooms.create({ id: 'r2', name: 'Room two', moderation: 'auto' });
  w = await h.watcher();
});
afterEach(() => h.close());

describe('automatic moderation (AOR §7)', () => {
  it('republishes an allowed candidate to public byte for byte and spends one message', async () => {
    await grantAndWait();
    const c = candidate();
    const sent = await publishCandidate(c);
    const seen = await w.until('rooms/r1/public', c.id);
    expect(seen.at(-1)!.payload).toBe(sent);
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(1);
    const history = await h.store.rooms.listMessages({ roomId: 'r1', limit: 50 });
    expect(history.messages.map((m) => m.topicKind)).toEqual(['control', 'public_candidates', 'public']);
    expect(new TextDecoder().decode(history.messages[2]!.payload)).toBe(sent);
  });

  it.each([
    ['no grant', () => candidate(), 'no_mic_grant', false],
    ['a type the grant does not allow', () => candidate({ messageType: 'finding' }), 'message_type_not_allowed', true],
    ["another agent's name", () => candidate({ from: 'agent.analyst' }), 'sender_mismatch', true],
    ['another room in the envelope', () => candidate({ room: 'r2' }), 'room_mismatch', true],
    ['a non-result type', () => candidate({ type: 'say' }), 'invalid_envelope', true],
    ['another task', () => candidate({ task: 'task_9' }), 'no_mic_grant', true],
  ])('rejects %s with a coded reason, message_id and task_id', async (_label, make, reason, granted) => {
    if (granted) await grantAndWait();
    const c = make();
    await publishCandidate(c);
    const reject = await rejectFor(c.id);
    expect(reject.type).toBe('reject');
    expect(reject.payload).toMatchObject({ reason, message_id: c.id });
    if (reason !== 'invalid_envelope' && reason !== 'room_mismatch' && reason !== 'sender_mismatch')
      expect(reject.payload.task_id).toBe(c.payload.task_id);
    if (granted) expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(0);
  });

  it.each([
    ['malformed JSON', () => '{"id": "x", '],
    ['an oversize payload', () => JSON.stringify({ ...candidate(), pad: 'x'.repeat(300 * 1024) })],
    ['an unknown type', () => JSON.stringify({ ...candidate(), type: 'shout' })],
  ])('rejects %s as invalid_envelope and changes nothing', async (_label, text) => {
    await grantAndWait();
    await publishCandidate(text());
    const seen = await w.until('rooms/r1/control', '"reason":"invalid_envelope"');
    expect(seen.filter((m) => m.topic === 'rooms/r1/public')).toEqual([]);
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(0);
  });

  it('stops at max_messages and ends the grant with a control event', async () => {
    await grantAndWait(grant({ max: 2 }));
    const [a, b, c] = [candidate(), candidate(), candidate()];
    for (const x of [a, b, c]) await publishCandidate(x);
    const reject = await rejectFor(c.id);
    // The grant ended itself when its budget ran out; the agent still learns the real cause.
    expect(reject.payload.reason).toBe('message_limit_exceeded');
    const publics = w.received.filter((m) => m.topic === 'rooms/r1/public').map((m) => JSON.parse(m.payload).id);
    expect(publics).toEqual([a.id, b.id]);
    const ended = w.received.find((m) => m.topic === 'rooms/r1/control' && m.payload.includes('"type":"mic_revoke"'));
    expect(JSON.parse(ended!.payload).payload).toMatchObject({
      task_id: 'task_1',
      agent_id: 'agent.researcher',
      reason: 'message_limit_exceeded',
    });
  });

  it('refuses after a revoke', async () => {
    await grantAndWait();
    await h.facilitatorPublish('rooms/r1/control', {
      id: 'rev_1',
      type: 'mic_revoke',
      room_id: 'r1',
      from: F,
      ts: nowS(),
      payload: { task_id: 'task_1', agent_id: 'agent.researcher', reason: 'task_cancelled' },
    });
    await w.until('rooms/r1/control', 'rev_1');
    for (
      let i = 0;
      i < 100 && (await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.endedAt === null;
      i++
    )
      await new Promise((r) => setImmediate(r));
    const c = candidate();
    await publishCandidate(c);
    expect((await rejectFor(c.id)).payload.reason).toBe('mic_revoked');
  });

  it('ends an expired grant by itself with a control event, then refuses as expired', async () => {
    await grantAndWait(grant({ expiresIn: 30 }));
    h.clock.now += 31_000;
    await h.gateway.sweep();
    const end = await w.until('rooms/r1/control', 'mic_grant_expired');
    expect(JSON.parse(end.at(-1)!.payload)).toMatchObject({
      type: 'mic_revoke',
      from: { kind: 'system' },
      payload: { reason: 'mic_grant_expired' },
    });
    const c = candidate();
    await publishCandidate(c);
    expect((await rejectFor(c.id)).payload.reason).toBe('mic_grant_expired');
  });

  it('keeps grants and spent counts across a restart', async () => {
    await grantAndWait(grant({ max: 2 }));
    const first = candidate();
    await publishCandidate(first);
    await w.until('rooms/r1/public', first.id);
    await h.restart();
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(1);
    w = await h.watcher();
    const w2 = w;
    const [second, third] = [candidate(), candidate()];
    await publishCandidate(second);
    await publishCandidate(third);
    await w2.until('rooms/r1/public', second.id);
    expect((await rejectFor(third.id)).payload.reason).toBe('message_limit_exceeded');
  });
});

// The same bytes again, before and after a restart, on both brokers: gateway-brokers.test.ts.
describe('a candidate sent again (decisions-server.md §30)', () => {
  it('hands the decision over again when the same candidate comes again after a restart, and spends nothing (§35)', async () => {
    await grantAndWait(grant({ max: 5 }));
    const c = candidate();
    const text = await publishCandidate(c);
    await w.until('rooms/r1/public', c.id);
    // Restarted before the PUBACK went out: the agent sends the candidate again. Its approved
    // copy may never have reached the broker, so it is handed over again (not decided again).
    await h.restart();
    w = await h.watcher();
    await publishCandidate(text);
    const again = await Promise.race([
      w.until('rooms/r1/public', c.id),
      new Promise<'none'>((resolve) => setTimeout(() => resolve('none'), 3_000)),
    ]);
    expect(again).not.toBe('none');
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(1);
    const copies = (await h.store.rooms.listMessages({ roomId: 'r1', limit: 100, before: 1e12 })).messages.filter(
      (m) => m.messageId === c.id,
    );
    expect(copies.map((m) => m.topicKind).sort()).toEqual(['public', 'public_candidates']);
  });

  it('holds a candidate that arrives before recovery ran, so that a redelivered one is still decided once (§34)', async () => {
    await grantAndWait(grant({ max: 5 }));
    const c = candidate();
    const text = await publishCandidate(c);
    await w.until('rooms/r1/public', c.id);
    // A second gateway on the same database, as after a restart, handed the same candidate again
    // before its recover() has run (an external broker delivers as soon as the server subscribes).
    const restarted = new Gateway({
      broker: h.broker,
      store: h.store,
      history: new HistoryRecorder(h.store, h.rooms),
      now: () => h.clock.now,
      newId: () => `msg_${randomUUID()}`,
    });
    let admitted = false;
    const again = restarted
      .admitCandidate({
        topic: 'rooms/r1/public_candidates',
        payload: new TextEncoder().encode(text),
        publisher: { kind: 'agent', agentId: 'agent.researcher' },
        receivedAt: h.clock.now,
      })
      .then(() => (admitted = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(admitted).toBe(false);
    await restarted.recover();
    await again;
    await restarted.stop();
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(1);
  });

  it('rejects another message under an id the agent already used, as invalid_envelope, and spends nothing', async () => {
    await grantAndWait(grant({ max: 5 }));
    const c = candidate();
    await publishCandidate(c);
    await w.until('rooms/r1/public', c.id);
    await publishCandidate({ ...c, payload: { ...c.payload, content: { text: 'something else' } } });
    const reject = await rejectFor(c.id);
    expect(reject.payload.reason).toBe('invalid_envelope');
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(1);
  });
});

describe('review mode', () => {
  beforeEach(() => h.store.rooms.setModeration('r1', 'review'));

  it('holds a passing candidate until a facilitator approves, spending budget only then', async () => {
    await grantAndWait();
    const c = candidate();
    const sent = await publishCandidate(c);
    await w.until('switchboard/rooms/r1/review', c.id);
    const [item] = await h.store.rooms.listReviewItems('r1', 'pending');
    expect(item?.messageId).toBe(c.id);
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(0);
    expect(await h.gateway.approveReview(item!.id, F.id)).toBeDefined();
    const seen = await w.until('rooms/r1/public', c.id);
    expect(seen.at(-1)!.payload).toBe(sent);
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(1);
    expect(await h.gateway.approveReview(item!.id, F.id)).toBeUndefined();
    expect(await h.gateway.rejectReview(item!.id, F.id, 'late')).toBeUndefined();
  });

  it('rejects with facilitator_rejected and a reason, once', async () => {
    await grantAndWait();
    const c = candidate();
    await publishCandidate(c);
    await w.until('switchboard/rooms/r1/review', c.id);
    const [item] = await h.store.rooms.listReviewItems('r1', 'pending');
    await h.gateway.rejectReview(item!.id, F.id, 'Off topic');
    const reject = await rejectFor(c.id);
    expect(reject.payload.reason).toBe('facilitator_rejected');
    expect((await h.store.rooms.getGrant('r1', 'agent.researcher', 'task_1'))?.spent).toBe(0);
    const concurrent = await Promise.all([
      h.gateway.approveReview(item!.id, F.id),
      h.gateway.rejectReview(item!.id, F.id, 'x'),
    ]);
    expect(concurrent).toEqual([undefined, undefined]);
  });

  it('announces a moderation change to consoles', async () => {
    await h.gateway.announceModeration('r1', 'review');
    const seen = await w.until('switchboard/rooms/r1/review', '"kind":"moderation"');
    expect(JSON.parse(seen.at(-1)!.payload)).toEqual({ kind: 'moderation', roomId: 'r1', moderation: 'review' });
  });

  it('still rejects what fails §7 without queueing it', async () => {
    const c = candidate();
    await publishCandidate(c);
    expect((await rejectFor(c.id)).payload.reason).toBe('no_mic_grant');
    expect(await h.store.rooms.listReviewItems('r1')).toEqual([]);
  });
});
