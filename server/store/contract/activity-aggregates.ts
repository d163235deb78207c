// The Store contract, the activity aggregates (decisions-server.md §73, §74): the counts the health
// panel and the Agents screen read are kept by the transaction that stores each row, so a reject
// and its count commit together or not at all; they read right across minute and hour boundaries;
// rejects are kept a day and their counts outlive them.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { beforeEach, describe, expect, it } from 'vitest';
import type { CandidateJudgement, NewRoomMessage, Store } from '../store';
import { T0, message } from './fixtures';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A whole UTC hour, so minute and hour boundaries are easy to read. */
const H0 = Math.ceil(T0 / HOUR) * HOUR;
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const candidate = (id: string, agentId: string, at: number): NewRoomMessage =>
  message('r1', 0, {
    topic: 'rooms/r1/public_candidates',
    topicKind: 'public_candidates',
    topicAgentId: agentId,
    messageId: id,
    type: 'result',
    fromId: agentId,
    receivedAt: at,
  });

const rejectOf = (id: string, reason: string, at: number): NewRoomMessage =>
  message('r1', 0, {
    topic: 'rooms/r1/control',
    topicKind: 'control',
    messageId: `rej-${id}`,
    type: 'reject',
    fromId: 'gateway',
    payload: encode({ id: `rej-${id}`, type: 'reject', payload: { reason, message_id: id } }),
    receivedAt: at,
  });

/** The gateway's judgement on a candidate without a grant: a reject, stored with it. */
const refuse = (id: string, at: number): CandidateJudgement => ({
  grantKey: undefined,
  decide: () => ({ kind: 'reject', reject: rejectOf(id, 'no_mic_grant', at) }),
});

export function describeActivityAggregatesContract(store: () => Store): void {
  describe('activity aggregates', () => {
    beforeEach(async () => {
      await store().rooms.ensureRoom({ id: 'r1', name: 'r1', moderation: 'auto' });
    });

    const rejectsIn = async (since: number, now: number) =>
      (await store().rooms.roomActivity('r1', since, now)).rejected;

    it('counts a reject in the transaction that stores it: a group rolled back and run again counts each once, a failed decision counts nothing', async () => {
      const at = H0 + 5 * MINUTE;
      const results = await Promise.allSettled([
        store().rooms.recordCandidate(candidate('c1', 'agent-a', at), refuse('c1', at)),
        // Refused by the database: the whole group is rolled back and run again piece by piece.
        store().rooms.appendMessage(message('r1', 9, { topicKind: 'bogus' as 'public', receivedAt: at })),
        store().rooms.recordCandidate(candidate('c2', 'agent-a', at), refuse('c2', at)),
        store().rooms.recordCandidate(candidate('c3', 'agent-b', at), {
          grantKey: undefined,
          decide: () => {
            throw new Error('the decision failed');
          },
        }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
      expect(await store().rooms.rejectsByAgent(H0)).toEqual([{ agentId: 'agent-a', rejects: 2 }]);
      expect(await rejectsIn(H0, at)).toEqual([{ reason: 'no_mic_grant', count: 2 }]);
      // Two candidates and two rejects: the stored rows and the minute's count agree.
      const stored = (await store().rooms.listMessages({ roomId: 'r1', limit: 100 })).messages;
      expect(stored.map((m) => `${m.topicKind}:${m.messageId}`)).toEqual([
        'public_candidates:c1',
        'control:rej-c1',
        'public_candidates:c2',
        'control:rej-c2',
      ]);
      expect((await store().rooms.roomActivity('r1', H0, at)).perMinute).toEqual([
        { at: H0 + 5 * MINUTE, messages: 4 },
      ]);
    });

    it('reads whole minutes across minute and hour boundaries, as a clock moves on', async () => {
      const stamps = [H0 - 1, H0, H0 + MINUTE - 1, H0 + MINUTE, H0 + HOUR - 1, H0 + HOUR];
      for (const [i, at] of stamps.entries())
        await store().rooms.recordCandidate(candidate(`c${i}`, 'agent-a', at), refuse(`c${i}`, at));
      const count = async (since: number, now: number) => (await rejectsIn(since, now))[0]?.count ?? 0;
      // Each moment of the clock: the window the health route asks (the minute of `now` and the
      // 59 before it), and what it holds.
      const health = (now: number) => Math.floor(now / MINUTE) * MINUTE - 59 * MINUTE;
      expect(await count(health(H0 - 1), H0 - 1)).toBe(1); // the minute before the hour
      // …and the whole of now's minute: a row late in it counts (a window is whole minutes).
      expect(await count(health(H0), H0)).toBe(3);
      expect(await count(health(H0 + MINUTE), H0 + MINUTE)).toBe(4);
      expect(await count(health(H0 + HOUR - 1), H0 + HOUR - 1)).toBe(4); // H0 - 1 has left the window
      expect(await count(health(H0 + HOUR), H0 + HOUR)).toBe(3); // H0's minute left, the new hour's came
      expect(await count(health(H0 + HOUR + MINUTE), H0 + HOUR + MINUTE)).toBe(2);
      // Any window is cut to the minutes from `now - 1 h`'s on.
      expect(await count(0, H0 + HOUR)).toBe(5);
      // The Agents screen's "since": from the minute holding it, whatever came after.
      expect(await store().rooms.rejectsByAgent(H0 + 30_000)).toEqual([{ agentId: 'agent-a', rejects: 5 }]);
      expect(await store().rooms.rejectsByAgent(H0 + MINUTE)).toEqual([{ agentId: 'agent-a', rejects: 3 }]);
      expect(await store().rooms.rejectsByAgent(H0 + 2 * HOUR)).toEqual([]);
    });

    it('keeps a reject counted for its agent after its candidate is gone, and an approved copy counted after its candidate is', async () => {
      const at = H0 + MINUTE;
      await store().rooms.recordCandidate(candidate('c1', 'agent-a', at), refuse('c1', at));
      await store().rooms.appendMessage(candidate('c2', 'agent-a', at));
      await store().rooms.appendMessage(message('r1', 1, { messageId: 'c2', type: 'result', receivedAt: at }));
      await store().rooms.setRetention('r1', { maxMessages: 1, maxAgeDays: null });
      await store().rooms.applyRetention(at);
      expect((await store().rooms.listMessages({ roomId: 'r1', limit: 10 })).messages).toHaveLength(1);
      expect(await store().rooms.rejectsByAgent(H0)).toEqual([{ agentId: 'agent-a', rejects: 1 }]);
      const activity = await store().rooms.roomActivity('r1', H0, at);
      expect(activity.approved).toBe(1);
      expect(activity.perMinute).toEqual([{ at, messages: 4 }]);
    });

    it('sweeps rejects older than a day in every room, and buckets older than a day, keeping everything else', async () => {
      await store().rooms.ensureRoom({ id: 'r2', name: 'r2', moderation: 'auto' });
      const old = H0;
      const young = H0 + DAY;
      for (const [i, at] of [old, old, young].entries())
        await store().rooms.recordCandidate(candidate(`c${i}`, 'agent-a', at), refuse(`c${i}`, at));
      await store().rooms.appendMessage(message('r1', 7, { receivedAt: old }));
      const now = young + MINUTE; // the old rejects and their minute are a day and a minute old
      expect(await store().rooms.applyRetention(now)).toEqual([{ roomId: 'r1', deleted: 2 }]);
      const left = (await store().rooms.listMessages({ roomId: 'r1', limit: 100 })).messages;
      expect(left.map((m) => `${m.topicKind}:${m.messageId}`)).toEqual([
        'public_candidates:c0',
        'public_candidates:c1',
        'public_candidates:c2',
        'control:rej-c2',
        'public:m-r1-7',
      ]);
      expect((await store().rooms.listRooms()).find((r) => r.id === 'r1')?.messageCount).toBe(5);
      // The old minute's buckets are gone with them; the young one's count is whole.
      expect(await store().rooms.rejectsByAgent(0)).toEqual([{ agentId: 'agent-a', rejects: 1 }]);
      expect(await store().rooms.applyRetention(now)).toEqual([]);
    });
  });
}
