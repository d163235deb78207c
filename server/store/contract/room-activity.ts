// The Store contract, its room health queries (decisions-server.md §64, §73): a room's messages
// per minute, approved copies and rejects by reason over a window of an hour at most (in whole UTC
// minutes), and rejects counted for the agent whose candidate was refused.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { beforeEach, describe, expect, it } from 'vitest';
import type { NewRoomMessage, Store } from '../store';
import { T0 } from './fixtures';

/** A whole UTC minute, so the minute buckets below are easy to read. */
const M0 = Math.ceil(T0 / 60_000) * 60_000;
const HOUR = 3_600_000;
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

let n = 0;
function row(roomId: string, at: number, over: Partial<NewRoomMessage> = {}): NewRoomMessage {
  n++;
  return {
    roomId,
    topic: `rooms/${roomId}/public`,
    topicKind: 'public',
    topicAgentId: null,
    messageId: `msg-${n}`,
    type: 'chat',
    fromId: 'human.facilitator',
    payload: encode({ n }),
    receivedAt: at,
    ...over,
  };
}

/** A candidate as the broker hands it over: published (authenticated) by `agentId`. */
const candidate = (roomId: string, at: number, id: string, agentId: string | null) =>
  row(roomId, at, {
    topic: `rooms/${roomId}/public_candidates`,
    topicKind: 'public_candidates',
    topicAgentId: agentId,
    messageId: id,
    type: 'result',
    fromId: agentId,
  });

/** The gateway's approved copy of candidate `id`. */
const approvedCopy = (roomId: string, at: number, id: string) => row(roomId, at, { messageId: id, type: 'result' });

/** A `reject` on control (AOR §5.7); `messageId` undefined leaves message_id out, as the gateway does. */
const reject = (roomId: string, at: number, reason: string, messageId?: string) =>
  row(roomId, at, {
    topic: `rooms/${roomId}/control`,
    topicKind: 'control',
    type: 'reject',
    fromId: 'gateway',
    payload: encode({
      id: `rej-${n + 1}`,
      type: 'reject',
      payload: { reason, ...(messageId === undefined ? {} : { message_id: messageId }) },
    }),
  });

export function describeRoomActivityContract(store: () => Store): void {
  describe('room activity', () => {
    const append = async (...rows: NewRoomMessage[]) => {
      for (const r of rows) await store().rooms.appendMessage(r);
    };
    beforeEach(async () => {
      for (const id of ['r1', 'r2']) await store().rooms.ensureRoom({ id, name: id, moderation: 'auto' });
    });

    it('counts every topic kind per UTC minute inside the window, and nothing of another room or outside it', async () => {
      await append(
        row('r1', M0 - 1), // before the window
        row('r1', M0),
        candidate('r1', M0 + 59_999, 'c1', 'agent-a'),
        row('r1', M0 + 60_000, {
          topicKind: 'heartbeat',
          topic: 'rooms/r1/heartbeat/agent-a',
          topicAgentId: 'agent-a',
        }),
        reject('r1', M0 + 125_000, 'no_mic_grant'),
        row('r1', M0 + 180_000), // in a minute after now's (a window is read in whole minutes)
        row('r2', M0 + 1),
      );
      const activity = await store().rooms.roomActivity('r1', M0, M0 + 125_000);
      expect(activity.perMinute).toEqual([
        { at: M0, messages: 2 },
        { at: M0 + 60_000, messages: 1 },
        { at: M0 + 120_000, messages: 1 },
      ]);
      expect((await store().rooms.roomActivity('r2', M0, M0 + 125_000)).perMinute).toEqual([{ at: M0, messages: 1 }]);
      expect(await store().rooms.roomActivity('nowhere', M0, M0 + 125_000)).toEqual({
        perMinute: [],
        approved: 0,
        rejected: [],
      });
    });

    it('reads one hour at most, whatever window is asked', async () => {
      const now = M0 + 2 * HOUR;
      await append(row('r1', now - HOUR - 1), row('r1', now - HOUR), row('r1', now));
      const activity = await store().rooms.roomActivity('r1', 0, now);
      expect(activity.perMinute.reduce((sum, m) => sum + m.messages, 0)).toBe(2);
    });

    it('counts as approved the public copies of earlier candidates only, not a facilitator’s own messages', async () => {
      await append(
        candidate('r1', M0 - HOUR, 'old', 'agent-a'), // long before the window: its copy still counts
        candidate('r1', M0, 'c1', 'agent-a'),
        approvedCopy('r1', M0, 'c1'),
        approvedCopy('r1', M0 + 10, 'old'),
        row('r1', M0 + 20, { messageId: 'said-by-a-human' }),
        row('r1', M0 + 30, { messageId: null, type: null, payload: new Uint8Array([0xff]) }),
        candidate('r2', M0, 'c2', 'agent-a'),
        approvedCopy('r1', M0 + 40, 'c2'), // its candidate is in another room
        approvedCopy('r1', M0 + 50, 'later'),
        candidate('r1', M0 + 60, 'later', 'agent-a'), // the candidate came after the copy
      );
      expect((await store().rooms.roomActivity('r1', M0, M0 + 60_000)).approved).toBe(2);
    });

    it('groups rejects by their payload’s reason, most first, and names a malformed one unknown', async () => {
      await append(
        reject('r1', M0, 'no_mic_grant', 'c1'),
        reject('r1', M0 + 1, 'message_limit_exceeded', 'c2'),
        reject('r1', M0 + 2, 'no_mic_grant'),
        reject('r1', M0 - 1, 'sender_mismatch', 'c3'), // before the window
        reject('r2', M0, 'sender_mismatch', 'c4'),
        row('r1', M0 + 3, { topicKind: 'control', topic: 'rooms/r1/control', type: 'reject', payload: encode([1]) }),
        row('r1', M0 + 4, { topicKind: 'control', topic: 'rooms/r1/control', type: 'mic_revoke' }),
      );
      expect((await store().rooms.roomActivity('r1', M0, M0 + 60_000)).rejected).toEqual([
        { reason: 'no_mic_grant', count: 2 },
        { reason: 'message_limit_exceeded', count: 1 },
        { reason: 'unknown', count: 1 },
      ]);
    });

    it('counts each reject for the agent that published the refused candidate, in one room or all', async () => {
      await append(
        // agent-b's candidate names itself agent-a (impersonation): the broker's word counts.
        candidate('r1', M0, 'c1', 'agent-b'),
        reject('r1', M0, 'sender_mismatch', 'c1'),
        candidate('r1', M0 + 1, 'c2', 'agent-b'),
        reject('r1', M0 + 1, 'no_mic_grant', 'c2'),
        candidate('r1', M0 + 2, 'c3', 'agent-a'),
        reject('r1', M0 + 2, 'no_mic_grant', 'c3'),
        // The same id again from agent-c: its reject is agent-c's, not the first candidate's.
        candidate('r1', M0 + 3, 'c3', 'agent-c'),
        reject('r1', M0 + 3, 'invalid_envelope', 'c3'),
        // Nobody: no message id, a candidate without a known publisher, a candidate in another room.
        reject('r1', M0 + 4, 'invalid_envelope'),
        candidate('r1', M0 + 5, 'c5', null),
        reject('r1', M0 + 5, 'no_mic_grant', 'c5'),
        reject('r1', M0 + 6, 'no_mic_grant', 'c6'),
        candidate('r2', M0, 'c6', 'agent-a'),
        candidate('r2', M0 + 7, 'c7', 'agent-a'),
        reject('r2', M0 + 7, 'no_mic_grant', 'c7'),
        // Before the window.
        candidate('r1', M0 - 10, 'c0', 'agent-a'),
        reject('r1', M0 - 10, 'no_mic_grant', 'c0'),
      );
      expect(await store().rooms.rejectsByAgent(M0, 'r1')).toEqual([
        { agentId: 'agent-b', rejects: 2 },
        { agentId: 'agent-a', rejects: 1 },
        { agentId: 'agent-c', rejects: 1 },
      ]);
      expect(await store().rooms.rejectsByAgent(M0)).toEqual([
        { agentId: 'agent-a', rejects: 2 },
        { agentId: 'agent-b', rejects: 2 },
        { agentId: 'agent-c', rejects: 1 },
      ]);
      expect(await store().rooms.rejectsByAgent(M0, 'r2')).toEqual([{ agentId: 'agent-a', rejects: 1 }]);
      expect(await store().rooms.rejectsByAgent(M0 + 60_000)).toEqual([]);
    });
  });
}
