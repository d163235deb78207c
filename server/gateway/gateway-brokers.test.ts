// The gateway (AOR §7), review mode and history through real parts, run twice: over the embedded
// aedes broker, and over a private Mosquitto 2 with dynamic security and the ExternalBroker port.
// Agents publish over MQTT; what reaches `public` and `control` is read back
// from the server's broker port; decisions are in SQLite.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startEmbeddedRoomHarness,
  startExternalRoomHarness,
  type BrokerRoomHarness,
  type Watcher,
} from '../test-support/external-room-harness';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';

let mosquitto: PrivateMosquitto | undefined;
beforeAll(async () => {
  mosquitto = await startPrivateMosquitto();
});
afterAll(async () => {
  await mosquitto?.stop();
});

const CONTENT: Record<string, unknown> = {
  progress: { text: 'working' },
  finding: { bullets: ['Option A is cheaper'] },
};
const F = { kind: 'user', id: 'did:key:z6MkFacilitator' } as const;
const R = 'agent.researcher';

const kinds = [
  { kind: 'aedes', start: () => startEmbeddedRoomHarness() },
  { kind: 'mosquitto', start: () => startExternalRoomHarness(mosquitto!) },
] as const;

describe.each(kinds)('gateway over $kind', ({ start }) => {
  let h: BrokerRoomHarness;
  let w: Watcher;
  let seq = 0;
  const nowS = () => Math.floor(h.clock.now / 1000);

  function candidate(
    over: { id?: string; room?: string; from?: string; task?: string; messageType?: string; type?: string } = {},
  ) {
    return {
      id: over.id ?? `cand_${++seq}_${Math.random().toString(36).slice(2, 8)}`,
      type: over.type ?? 'result',
      room_id: over.room ?? 'r1',
      from: { kind: 'agent', id: over.from ?? R },
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
      id: over.id ?? `grant_${++seq}_${Math.random().toString(36).slice(2, 8)}`,
      type: 'mic_grant',
      room_id: 'r1',
      from: F,
      ts: nowS(),
      payload: {
        task_id: over.task ?? 'task_1',
        agent_id: R,
        max_messages: over.max ?? 3,
        allowed_message_types: over.types ?? ['ack', 'progress', 'result'],
        expires_at: nowS() + (over.expiresIn ?? 600),
      },
    };
  }

  async function publishCandidate(body: unknown, agentId = R): Promise<string> {
    const agent = await h.agent(agentId);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    await agent.client.publishAsync(h.candidateTopic('r1', agentId), text, { qos: 1 });
    return text;
  }

  async function grantAndWait(g = grant()) {
    await h.facilitatorPublish('rooms/r1/control', g);
    await w.until('rooms/r1/control', g.id);
    for (let i = 0; i < 100 && !(await h.store.rooms.getGrant('r1', R, g.payload.task_id)); i++)
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
    h = await start();
    await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
    await h.rooms.create({ id: 'r2', name: 'Room two', moderation: 'auto' });
    w = await h.watcher();
  });
  afterEach(async () => {
    await h.close();
  });

  describe('automatic moderation (AOR §7)', () => {
    it('republishes a granted candidate to public byte for byte, spends one message, and keeps history in order', async () => {
      await grantAndWait();
      const c = candidate();
      const sent = await publishCandidate(c);
      const seen = await w.until('rooms/r1/public', c.id);
      expect(seen.at(-1)!.payload).toBe(sent);
      expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(1);
      const history = await h.store.rooms.listMessages({ roomId: 'r1', limit: 50 });
      expect(history.messages.map((m) => [m.topic, m.topicKind])).toEqual([
        ['rooms/r1/control', 'control'],
        ['rooms/r1/public_candidates', 'public_candidates'],
        ['rooms/r1/public', 'public'],
      ]);
      expect(history.messages.slice(1).map((m) => new TextDecoder().decode(m.payload))).toEqual([sent, sent]);
    });

    it.each([
      ['no grant', () => candidate(), 'no_mic_grant', false],
      [
        'a type the grant does not allow',
        () => candidate({ messageType: 'finding' }),
        'message_type_not_allowed',
        true,
      ],
      ["another agent's name", () => candidate({ from: 'agent.analyst' }), 'sender_mismatch', true],
      ['another room in the envelope', () => candidate({ room: 'r2' }), 'room_mismatch', true],
      ['a non-result type', () => candidate({ type: 'say' }), 'invalid_envelope', true],
      ['another task', () => candidate({ task: 'task_9' }), 'no_mic_grant', true],
    ])('rejects %s with a coded reason and message_id, and approves nothing', async (_label, make, reason, granted) => {
      if (granted) await grantAndWait();
      const c = make();
      await publishCandidate(c);
      const reject = await rejectFor(c.id);
      expect(reject.type).toBe('reject');
      expect(reject.payload).toMatchObject({ reason, message_id: c.id });
      expect(w.received.filter((m) => m.topic === 'rooms/r1/public')).toEqual([]);
      if (granted) expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(0);
    });

    it('rejects malformed JSON as invalid_envelope and changes nothing', async () => {
      await grantAndWait();
      await publishCandidate('{"id": "x", ');
      const seen = await w.until('rooms/r1/control', '"reason":"invalid_envelope"');
      expect(seen.filter((m) => m.topic === 'rooms/r1/public')).toEqual([]);
      expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(0);
    });

    it('stops at max_messages and ends the grant with a control event', async () => {
      await grantAndWait(grant({ max: 2 }));
      const [a, b, c] = [candidate(), candidate(), candidate()];
      for (const x of [a, b, c]) await publishCandidate(x);
      expect((await rejectFor(c.id)).payload.reason).toBe('message_limit_exceeded');
      const publics = w.received
        .filter((m) => m.topic === 'rooms/r1/public')
        .map((m) => (JSON.parse(m.payload) as { id: string }).id);
      expect(publics).toEqual([a.id, b.id]);
    });

    it('decides a candidate delivered again once, before and after a restart (server decision 30)', async () => {
      await grantAndWait(grant({ max: 5 }));
      const c = candidate();
      const sent = await publishCandidate(c);
      await w.until('rooms/r1/public', c.id);
      await publishCandidate(sent);
      await h.restart();
      w = await h.watcher();
      await publishCandidate(sent);
      const marker = candidate();
      await publishCandidate(marker);
      await w.until('rooms/r1/public', marker.id);
      expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(2);
      const publics = (await h.store.rooms.listMessages({ roomId: 'r1', limit: 100 })).messages
        .filter((m) => m.topicKind === 'public')
        .map((m) => m.messageId);
      expect(publics).toEqual([c.id, marker.id]);
    });

    it('keeps grants and spent counts across a restart', async () => {
      await grantAndWait(grant({ max: 2 }));
      const first = candidate();
      await publishCandidate(first);
      await w.until('rooms/r1/public', first.id);
      await h.restart();
      expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(1);
      w = await h.watcher();
      const [second, third] = [candidate(), candidate()];
      await publishCandidate(second);
      await publishCandidate(third);
      await w.until('rooms/r1/public', second.id);
      expect((await rejectFor(third.id)).payload.reason).toBe('message_limit_exceeded');
    });

    it('ignores candidates to a room nobody created (not stored, not decided)', async () => {
      const agent = await h.agent(R);
      await agent.client
        .publishAsync(h.candidateTopic('ghost', R), JSON.stringify(candidate({ room: 'ghost' })), { qos: 1 })
        .catch(() => undefined);
      const c = candidate();
      await publishCandidate(c);
      await rejectFor(c.id);
      expect(w.received.filter((m) => m.topic.startsWith('rooms/ghost/'))).toEqual([]);
      expect((await h.store.rooms.listMessages({ roomId: 'ghost', limit: 10 })).messages).toEqual([]);
    });
  });

  describe('review mode', () => {
    beforeEach(() => h.store.rooms.setModeration('r1', 'review'));

    it('holds a passing candidate until a facilitator approves, then republishes it unchanged', async () => {
      await grantAndWait();
      const c = candidate();
      const sent = await publishCandidate(c);
      await w.until('switchboard/rooms/r1/review', c.id);
      const [item] = await h.store.rooms.listReviewItems('r1', 'pending');
      expect(item?.messageId).toBe(c.id);
      expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(0);
      expect(await h.gateway.approveReview(item!.id, F.id)).toBeDefined();
      const seen = await w.until('rooms/r1/public', c.id);
      expect(seen.at(-1)!.payload).toBe(sent);
      expect((await h.store.rooms.getGrant('r1', R, 'task_1'))?.spent).toBe(1);
      expect(await h.gateway.rejectReview(item!.id, F.id, 'late')).toBeUndefined();
    });

    it('rejects with facilitator_rejected, once', async () => {
      await grantAndWait();
      const c = candidate();
      await publishCandidate(c);
      await w.until('switchboard/rooms/r1/review', c.id);
      const [item] = await h.store.rooms.listReviewItems('r1', 'pending');
      await h.gateway.rejectReview(item!.id, F.id, 'Off topic');
      expect((await rejectFor(c.id)).payload.reason).toBe('facilitator_rejected');
      expect(await h.gateway.approveReview(item!.id, F.id)).toBeUndefined();
    });
  });
});

describe('gateway over mosquitto: the candidate subtopic is the authentication', () => {
  let h: BrokerRoomHarness;
  let w: Watcher;
  beforeEach(async () => {
    h = await startExternalRoomHarness(mosquitto!);
    await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
    w = await h.watcher();
  });
  afterEach(() => h.close());

  it("an agent cannot publish on another agent's candidate subtopic, so it cannot spend that agent's grant", async () => {
    const nowS = Math.floor(h.clock.now / 1000);
    const g = {
      id: 'grant_x',
      type: 'mic_grant',
      room_id: 'r1',
      from: F,
      ts: nowS,
      payload: {
        task_id: 't',
        agent_id: R,
        max_messages: 3,
        allowed_message_types: ['progress'],
        expires_at: nowS + 600,
      },
    };
    await h.facilitatorPublish('rooms/r1/control', g);
    await w.until('rooms/r1/control', 'grant_x');
    const forged = {
      id: 'forged_1',
      type: 'result',
      room_id: 'r1',
      from: { kind: 'agent', id: R },
      ts: nowS,
      payload: { task_id: 't', message_type: 'progress', content: { text: 'x' } },
    };
    const rogue = await h.agent('agent.rogue');
    await expect(
      rogue.client.publishAsync(h.candidateTopic('r1', R), JSON.stringify(forged), { qos: 1 }),
    ).rejects.toThrow(/Not authorized/i);
    // Its own subtopic works, and names it: the same envelope is a sender_mismatch.
    await rogue.client.publishAsync(
      h.candidateTopic('r1', 'agent.rogue'),
      JSON.stringify({ ...forged, id: 'forged_2' }),
      { qos: 1 },
    );
    const reject = await w.until('rooms/r1/control', '"message_id":"forged_2"');
    expect(JSON.parse(reject.at(-1)!.payload)).toMatchObject({
      type: 'reject',
      payload: { reason: 'sender_mismatch' },
    });
    expect(w.received.filter((m) => m.payload.includes('forged_1'))).toEqual([]);
    expect((await h.store.rooms.getGrant('r1', R, 't'))?.spent).toBe(0);
  });
});
