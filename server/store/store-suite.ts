// The Store contract as one Vitest suite. Every engine runs it unchanged:
//   describeStoreContract('sqlite', async () => openSqliteStore(…))
// `makeStore` must return an empty store; each test gets its own and closes it.
// Concurrency tests fire calls with Promise.all: against a single SQLite connection they run one
// after another, against PostgreSQL's pool they race for real; the verdicts must be the same.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewRoomMessage, Store, StoredRoomMessage, TopicKind } from './store';
import type { DirectoryRecord, NewRelayEnvelope, ThreadDecision } from './relay-store';
import type { ThreadState } from '@shared/agora/thread-state';

const T0 = 1_760_000_000_000; // ms
const S0 = 1_760_000_000; // Unix seconds, for mic grants (AOR §4)

function message(roomId: string, n: number, overrides: Partial<NewRoomMessage> = {}): NewRoomMessage {
  return {
    roomId,
    topic: `rooms/${roomId}/public`,
    topicKind: 'public',
    topicAgentId: null,
    messageId: `m-${roomId}-${n}`,
    type: 'chat',
    fromId: 'agent-a',
    payload: new TextEncoder().encode(JSON.stringify({ n })),
    receivedAt: T0 + n,
    ...overrides,
  };
}

const cursors = (messages: readonly StoredRoomMessage[]) => messages.map((m) => m.cursor);

function grant(overrides: Partial<Parameters<Store['putGrant']>[0]> = {}): Parameters<Store['putGrant']>[0] {
  return {
    roomId: 'r1',
    agentId: 'agent-a',
    taskId: 't1',
    maxMessages: 3,
    allowedTypes: ['chat', 'result'],
    expiresAt: S0 + 300,
    grantedAt: S0,
    grantMessageId: 'grant-1',
    ...overrides,
  };
}

function relayEnvelope(id: string, overrides: Partial<NewRelayEnvelope> = {}): NewRelayEnvelope {
  return {
    id,
    kind: 'event',
    digest: `digest-${id}`,
    type: 'REQUEST',
    sender: 'did:key:zClient',
    recipient: 'did:key:zAgent',
    threadId: `thread-${id}`,
    ts: T0,
    receivedAt: T0,
    expiresAt: T0 + 300_000,
    json: JSON.stringify({ id }),
    ...overrides,
  };
}

const pending = (threadId: string, client = 'did:key:zClient'): ThreadState => ({
  status: 'PENDING',
  threadId,
  client,
  requestId: 'req',
  requestMessageId: 'm',
  requestedAt: T0,
  offers: [{ offerId: 'o', agent: 'did:key:zAgent', receivedAt: T0 }],
});

/** Accepts every message: opens the thread as PENDING with a deadline. */
const open: ThreadDecision = (thread) => ({ ok: true, value: { state: pending(thread?.threadId ?? 'unknown'), deadlineAt: T0 + 1000 } });

function directoryRecord(did: string, registeredAt: number, envelopeId: string, name = 'Agent'): DirectoryRecord {
  return { did, manifest: { name }, scope: 'public', authorizedAgents: [], aorAgentId: null, endpoint: null, registeredAt, envelopeId };
}

export function describeStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('rooms', () => {
      it('ensureRoom creates a room once and then returns it unchanged', async () => {
        const created = await store.ensureRoom({ id: 'r1', name: 'Launch', moderation: 'auto', createdAt: T0 });
        expect(created).toEqual({ id: 'r1', name: 'Launch', moderation: 'auto', createdAt: T0 });
        const again = await store.ensureRoom({ id: 'r1', name: 'Other name', moderation: 'review', createdAt: T0 + 5 });
        expect(again).toEqual(created);
        expect(await store.getRoom('r1')).toEqual(created);
        expect(await store.getRoom('nope')).toBeUndefined();
      });

      it('ensureRoom without createdAt stamps the current time', async () => {
        const before = Date.now();
        const room = await store.ensureRoom({ id: 'r1', name: 'Now', moderation: 'auto' });
        expect(room.createdAt).toBeGreaterThanOrEqual(before);
        expect(room.createdAt).toBeLessThanOrEqual(Date.now());
      });

      it('setModeration switches the mode and refuses an unknown room with ROOM_NOT_FOUND', async () => {
        await store.ensureRoom({ id: 'r1', name: 'R', moderation: 'auto', createdAt: T0 });
        await store.setModeration('r1', 'review');
        expect((await store.getRoom('r1'))?.moderation).toBe('review');
        await expect(store.setModeration('ghost', 'review')).rejects.toMatchObject({ code: 'ROOM_NOT_FOUND' });
        expect(await store.getRoom('ghost')).toBeUndefined();
      });

      it('listRooms reports message counts and last activity, rooms ordered by id', async () => {
        await store.ensureRoom({ id: 'r2', name: 'Quiet', moderation: 'review', createdAt: T0 });
        await store.ensureRoom({ id: 'r1', name: 'Busy', moderation: 'auto', createdAt: T0 });
        for (let n = 1; n <= 5; n++) await store.appendMessage(message('r1', n));
        expect(await store.listRooms()).toEqual([
          { id: 'r1', name: 'Busy', moderation: 'auto', createdAt: T0, messageCount: 5, lastActivityAt: T0 + 5 },
          { id: 'r2', name: 'Quiet', moderation: 'review', createdAt: T0, messageCount: 0, lastActivityAt: null },
        ]);
      });

      it('lastActivityAt is the latest receivedAt even when a later cursor carries an earlier time', async () => {
        await store.appendMessage(message('r1', 1, { receivedAt: T0 + 100 }));
        await store.appendMessage(message('r1', 2, { receivedAt: T0 + 50 }));
        const [room] = await store.listRooms();
        expect(room).toMatchObject({ messageCount: 2, lastActivityAt: T0 + 100 });
      });
    });

    describe('messages', () => {
      it('gives every message a strictly increasing cursor across rooms', async () => {
        const stored: StoredRoomMessage[] = [];
        for (let n = 0; n < 30; n++) stored.push(await store.appendMessage(message(n % 3 === 0 ? 'r2' : 'r1', n)));
        for (let i = 1; i < stored.length; i++) expect(stored[i]!.cursor).toBeGreaterThan(stored[i - 1]!.cursor);
        expect(stored.every((m) => Number.isSafeInteger(m.cursor))).toBe(true);
      });

      it('keeps payload bytes exactly and round-trips every field, nulls included', async () => {
        const raw = Uint8Array.of(0, 255, 0xc3, 0x28, 10, 0, 0x7b); // not UTF-8, with NULs
        const appended = await store.appendMessage({
          roomId: 'r1',
          topic: 'rooms/r1/agents/bot/heartbeat',
          topicKind: 'heartbeat',
          topicAgentId: 'bot',
          messageId: null,
          type: null,
          fromId: null,
          payload: raw,
          receivedAt: T0,
        });
        const { messages } = await store.listMessages({ roomId: 'r1', limit: 10 });
        expect(messages).toHaveLength(1);
        const [stored] = messages;
        expect(stored).toMatchObject({
          cursor: appended.cursor,
          roomId: 'r1',
          topic: 'rooms/r1/agents/bot/heartbeat',
          topicKind: 'heartbeat',
          topicAgentId: 'bot',
          messageId: null,
          type: null,
          fromId: null,
          receivedAt: T0,
        });
        expect(stored!.payload).toBeInstanceOf(Uint8Array);
        expect([...stored!.payload]).toEqual([...raw]);
      });

      it('creates the room of a message to an unknown room (AOR rooms are implicit)', async () => {
        await store.appendMessage(message('fresh', 1));
        expect(await store.getRoom('fresh')).toEqual({ id: 'fresh', name: 'fresh', moderation: 'auto', createdAt: T0 + 1 });
      });

      it('answers an empty or unknown room with an empty page', async () => {
        expect(await store.listMessages({ roomId: 'nobody', limit: 10 })).toEqual({ messages: [], hasMore: false });
      });

      it('pages back from the newest over 250 messages without gaps or duplicates, each page ascending', async () => {
        const all: number[] = [];
        for (let n = 0; n < 250; n++) {
          all.push((await store.appendMessage(message('r1', n))).cursor);
          if (n % 10 === 0) await store.appendMessage(message('other', n)); // interleaved noise
        }
        const seen: number[] = [];
        let page = await store.listMessages({ roomId: 'r1', limit: 40 });
        for (;;) {
          const pageCursors = cursors(page.messages);
          expect(pageCursors).toEqual([...pageCursors].sort((a, b) => a - b));
          expect(page.messages.every((m) => m.roomId === 'r1')).toBe(true);
          seen.unshift(...pageCursors);
          if (!page.hasMore) break;
          page = await store.listMessages({ roomId: 'r1', limit: 40, before: pageCursors[0]! });
        }
        expect(seen).toEqual(all);
        expect(page.messages).toHaveLength(250 % 40);
      });

      it('pages forward from a cursor (backfill) without gaps or duplicates', async () => {
        const all: number[] = [];
        for (let n = 0; n < 250; n++) all.push((await store.appendMessage(message('r1', n))).cursor);
        const seen: number[] = [];
        let after = 0;
        for (;;) {
          const page = await store.listMessages({ roomId: 'r1', limit: 64, after });
          seen.push(...cursors(page.messages));
          if (!page.hasMore) break;
          after = page.messages.at(-1)!.cursor;
        }
        expect(seen).toEqual(all);
        const tail = await store.listMessages({ roomId: 'r1', limit: 10, after: all.at(-1)! });
        expect(tail).toEqual({ messages: [], hasMore: false });
      });

      it('hasMore is false when a page ends exactly at the last message', async () => {
        for (let n = 0; n < 10; n++) await store.appendMessage(message('r1', n));
        expect((await store.listMessages({ roomId: 'r1', limit: 10 })).hasMore).toBe(false);
        expect((await store.listMessages({ roomId: 'r1', limit: 9 })).hasMore).toBe(true);
      });

      it('with both before and after, returns the newest page inside the range', async () => {
        const all: number[] = [];
        for (let n = 0; n < 20; n++) all.push((await store.appendMessage(message('r1', n))).cursor);
        const page = await store.listMessages({ roomId: 'r1', limit: 3, after: all[4]!, before: all[15]! });
        expect(cursors(page.messages)).toEqual(all.slice(12, 15));
        expect(page.hasMore).toBe(true);
      });

      it('filters by types, by agent (sender or topic agent) and by topic kinds, also while paging', async () => {
        const kinds: TopicKind[] = ['public', 'public_candidates', 'control', 'inbox', 'heartbeat', 'work'];
        const stored: StoredRoomMessage[] = [];
        for (let n = 0; n < 60; n++) {
          const topicKind = kinds[n % kinds.length]!;
          const perAgent = topicKind === 'inbox' || topicKind === 'heartbeat' || topicKind === 'work';
          stored.push(
            await store.appendMessage(
              message('r1', n, {
                topicKind,
                topicAgentId: perAgent ? (n % 4 === 0 ? 'bob' : 'carol') : null,
                type: n % 3 === 0 ? 'task' : n % 3 === 1 ? 'chat' : 'result',
                fromId: n % 5 === 0 ? 'bob' : 'alice',
              }),
            ),
          );
        }
        const expectFilter = async (query: Omit<Parameters<Store['listMessages']>[0], 'roomId' | 'limit'>, keep: (m: StoredRoomMessage) => boolean) => {
          const wanted = cursors(stored.filter(keep));
          expect(wanted.length).toBeGreaterThan(0);
          const seen: number[] = [];
          let before: number | undefined;
          for (;;) {
            const page = await store.listMessages({ roomId: 'r1', limit: 4, ...query, ...(before === undefined ? {} : { before }) });
            seen.unshift(...cursors(page.messages));
            if (!page.hasMore) break;
            before = page.messages[0]!.cursor;
          }
          expect(seen).toEqual(wanted);
        };
        await expectFilter({ types: ['task', 'result'] }, (m) => m.type === 'task' || m.type === 'result');
        await expectFilter({ agentId: 'bob' }, (m) => m.fromId === 'bob' || m.topicAgentId === 'bob');
        await expectFilter({ topicKinds: ['inbox', 'work'] }, (m) => m.topicKind === 'inbox' || m.topicKind === 'work');
        await expectFilter(
          { types: ['chat'], agentId: 'carol', topicKinds: ['heartbeat', 'inbox'] },
          (m) => m.type === 'chat' && (m.fromId === 'carol' || m.topicAgentId === 'carol') && (m.topicKind === 'heartbeat' || m.topicKind === 'inbox'),
        );
        // An empty list filters nothing, like an absent one.
        await expectFilter({ types: [], topicKinds: [] }, () => true);
        const none = await store.listMessages({ roomId: 'r1', limit: 10, types: ['no-such-type'] });
        expect(none).toEqual({ messages: [], hasMore: false });
      });

      it('refuses a limit that is not a positive integer', async () => {
        await expect(store.listMessages({ roomId: 'r1', limit: 0 })).rejects.toThrow(RangeError);
        await expect(store.listMessages({ roomId: 'r1', limit: 2.5 })).rejects.toThrow(RangeError);
      });
    });

    describe('mic grants', () => {
      it('putGrant stores a fresh grant; getGrant and listGrants find it', async () => {
        const stored = await store.putGrant(grant());
        expect(stored).toEqual({ ...grant(), spent: 0, endedAt: null, endReason: null });
        expect(await store.getGrant('r1', 'agent-a', 't1')).toEqual(stored);
        expect(await store.getGrant('r1', 'agent-a', 't2')).toBeUndefined();
        await store.putGrant(grant({ roomId: 'r2', grantMessageId: 'g-r2' }));
        await store.putGrant(grant({ taskId: 't2', grantMessageId: 'g-t2' }));
        await store.endGrant('r1', 'agent-a', 't2', 'revoked', T0);
        const key = (g: { roomId: string; taskId: string }) => `${g.roomId}/${g.taskId}`;
        expect((await store.listGrants({})).map(key)).toEqual(['r1/t1', 'r1/t2', 'r2/t1']);
        expect((await store.listGrants({ roomId: 'r1' })).map(key)).toEqual(['r1/t1', 'r1/t2']);
        expect((await store.listGrants({ roomId: 'r1', active: true })).map(key)).toEqual(['r1/t1']);
        expect((await store.listGrants({ active: false })).map(key)).toEqual(['r1/t2']);
      });

      it('spends the budget one message at a time, then refuses with message_limit_exceeded', async () => {
        await store.putGrant(grant({ maxMessages: 3 }));
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({ ok: true, spent: 1, remaining: 2 });
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({ ok: true, spent: 2, remaining: 1 });
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({ ok: true, spent: 3, remaining: 0 });
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({ ok: false, reason: 'message_limit_exceeded' });
        expect((await store.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(3);
      });

      it('refuses without a grant with no_mic_grant', async () => {
        expect(await store.spendGrant('r1', 'nobody', 't1', S0)).toEqual({ ok: false, reason: 'no_mic_grant' });
        await store.putGrant(grant());
        expect(await store.spendGrant('r1', 'agent-a', 'other-task', S0)).toEqual({ ok: false, reason: 'no_mic_grant' });
      });

      it('never spends beyond maxMessages under 50 concurrent spends on a budget of 6', async () => {
        await store.putGrant(grant({ maxMessages: 6 }));
        const results = await Promise.all(Array.from({ length: 50 }, () => store.spendGrant('r1', 'agent-a', 't1', S0 + 10)));
        const granted = results.filter((r) => r.ok);
        expect(granted).toHaveLength(6);
        expect(granted.map((r) => (r.ok ? r.spent : 0)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'message_limit_exceeded')).toBe(true);
        expect((await store.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(6);
      });

      it('is live through the whole second expires_at and refuses after it with mic_grant_expired', async () => {
        await store.putGrant(grant({ expiresAt: S0 + 60, maxMessages: 10 }));
        expect((await store.spendGrant('r1', 'agent-a', 't1', S0 + 60)).ok).toBe(true);
        expect((await store.spendGrant('r1', 'agent-a', 't1', S0 + 60.999)).ok).toBe(true);
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 61)).toEqual({ ok: false, reason: 'mic_grant_expired' });
        expect((await store.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(2);
      });

      it('lists live grants past their expiry for the sweeper, and not once ended', async () => {
        await store.putGrant(grant({ taskId: 'short', expiresAt: S0 + 10, grantMessageId: 'g1' }));
        await store.putGrant(grant({ taskId: 'long', expiresAt: S0 + 1000, grantMessageId: 'g2' }));
        expect(await store.listExpiredLiveGrants(S0 + 10.5)).toEqual([]);
        const expired = await store.listExpiredLiveGrants(S0 + 11);
        expect(expired.map((g) => g.taskId)).toEqual(['short']);
        expect(await store.endGrant('r1', 'agent-a', 'short', 'expired', T0)).toBe(true);
        expect(await store.listExpiredLiveGrants(S0 + 11)).toEqual([]);
        // Expiry wins over the end, as in shared/aor/grant-check.ts: the agent learns the real cause.
        expect(await store.spendGrant('r1', 'agent-a', 'short', S0 + 11)).toEqual({ ok: false, reason: 'mic_grant_expired' });
      });

      it('endGrant ends a live grant once; spending afterwards is refused with mic_revoked', async () => {
        await store.putGrant(grant());
        expect(await store.endGrant('r1', 'agent-a', 't1', 'revoked', T0 + 7)).toBe(true);
        expect(await store.endGrant('r1', 'agent-a', 't1', 'revoked again', T0 + 8)).toBe(false);
        expect(await store.endGrant('r1', 'agent-a', 'unknown', 'revoked', T0)).toBe(false);
        expect(await store.getGrant('r1', 'agent-a', 't1')).toMatchObject({ endedAt: T0 + 7, endReason: 'revoked' });
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({ ok: false, reason: 'mic_revoked' });
      });

      it('endGrant is decided once under concurrency', async () => {
        await store.putGrant(grant());
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.endGrant('r1', 'agent-a', 't1', `r${i}`, T0 + i)));
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      // Decision (docs/decisions-server.md): a new grant for the same (room, agent, task) replaces
      // the one in force with a fresh budget and lifts an end, as AOR §5.3 gives each grant its
      // own max_messages. A redelivered grant message (same id) or an older one changes nothing,
      // so an MQTT QoS 1 duplicate can never refill a budget.
      it('putGrant with a new grant message replaces the grant: spent resets and an end is lifted', async () => {
        await store.putGrant(grant({ maxMessages: 2 }));
        await store.spendGrant('r1', 'agent-a', 't1', S0);
        await store.spendGrant('r1', 'agent-a', 't1', S0);
        await store.endGrant('r1', 'agent-a', 't1', 'revoked', T0);
        const replaced = await store.putGrant(grant({ maxMessages: 5, grantMessageId: 'grant-2', grantedAt: S0 + 20, allowedTypes: ['chat'] }));
        expect(replaced).toMatchObject({ maxMessages: 5, spent: 0, endedAt: null, endReason: null, grantMessageId: 'grant-2', allowedTypes: ['chat'] });
        expect(await store.spendGrant('r1', 'agent-a', 't1', S0 + 21)).toEqual({ ok: true, spent: 1, remaining: 4 });
      });

      it('putGrant with the grant in force again (redelivery) or an older grant keeps the budget spent', async () => {
        await store.putGrant(grant({ maxMessages: 2, grantedAt: S0 + 5 }));
        await store.spendGrant('r1', 'agent-a', 't1', S0 + 6);
        const redelivered = await store.putGrant(grant({ maxMessages: 2, grantedAt: S0 + 5 }));
        expect(redelivered).toMatchObject({ spent: 1, grantMessageId: 'grant-1' });
        const stale = await store.putGrant(grant({ maxMessages: 9, grantedAt: S0, grantMessageId: 'grant-0' }));
        expect(stale).toMatchObject({ spent: 1, maxMessages: 2, grantMessageId: 'grant-1' });
      });
    });

    describe('approvals (spend and store in one transaction)', () => {
      const approved = (n: number) => message('r1', n, { topicAgentId: null, messageId: `ok-${n}` });

      it('spendGrantAndAppend stores the approved copy only when the spend succeeds', async () => {
        await store.putGrant(grant({ maxMessages: 1 }));
        const first = await store.spendGrantAndAppend('r1', 'agent-a', 't1', S0, approved(1));
        expect(first.spend).toEqual({ ok: true, spent: 1, remaining: 0 });
        expect(first.stored?.messageId).toBe('ok-1');
        const second = await store.spendGrantAndAppend('r1', 'agent-a', 't1', S0, approved(2));
        expect(second).toEqual({ spend: { ok: false, reason: 'message_limit_exceeded' } });
        const page = await store.listMessages({ roomId: 'r1', limit: 10 });
        expect(page.messages.map((m) => m.messageId)).toEqual(['ok-1']);
      });

      it('never stores more approved copies than the budget under 30 concurrent approvals', async () => {
        await store.putGrant(grant({ maxMessages: 5 }));
        const results = await Promise.all(Array.from({ length: 30 }, (_, i) => store.spendGrantAndAppend('r1', 'agent-a', 't1', S0, approved(i))));
        expect(results.filter((r) => r.spend.ok)).toHaveLength(5);
        expect((await store.listMessages({ roomId: 'r1', limit: 100 })).messages).toHaveLength(5);
        expect((await store.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(5);
      });

      it('approveReviewItem claims once, spends and stores; a refusing grant rejects the item', async () => {
        await store.putGrant(grant({ maxMessages: 1 }));
        const a = await store.addReviewItem({ roomId: 'r1', agentId: 'agent-a', taskId: 't1', messageId: 'c1', payload: Uint8Array.of(1), submittedAt: T0 });
        const b = await store.addReviewItem({ roomId: 'r1', agentId: 'agent-a', taskId: 't1', messageId: 'c2', payload: Uint8Array.of(2), submittedAt: T0 });
        const both = await Promise.all([
          store.approveReviewItem(a.id, 'did:key:f', T0 + 5, S0, () => approved(1)),
          store.approveReviewItem(a.id, 'did:key:g', T0 + 6, S0, () => approved(9)),
        ]);
        expect(both.filter((r) => r !== undefined)).toHaveLength(1);
        expect(both.find((r) => r)?.item).toMatchObject({ status: 'approved', messageId: 'c1' });
        const refused = await store.approveReviewItem(b.id, 'did:key:f', T0 + 7, S0, () => approved(2));
        expect(refused?.spend).toEqual({ ok: false, reason: 'message_limit_exceeded' });
        expect(refused?.item).toMatchObject({ status: 'rejected', reason: 'message_limit_exceeded' });
        expect((await store.listMessages({ roomId: 'r1', limit: 10 })).messages.map((m) => m.messageId)).toEqual(['ok-1']);
        expect(await store.approveReviewItem(b.id, 'did:key:f', T0 + 8, S0, () => approved(3))).toBeUndefined();
      });
    });

    describe('review items', () => {
      const item = (n: number, roomId = 'r1') => ({
        roomId,
        agentId: 'agent-a',
        taskId: 't1',
        messageId: `cand-${n}`,
        payload: Uint8Array.of(n, 0, 255),
        submittedAt: T0 + n,
      });

      it('adds pending items and lists them by room and status in submission order', async () => {
        const a = await store.addReviewItem(item(1));
        const b = await store.addReviewItem(item(2));
        await store.addReviewItem(item(3, 'r2'));
        expect(a).toMatchObject({ ...item(1), payload: expect.any(Uint8Array), status: 'pending', decidedBy: null, decidedAt: null, reason: null });
        expect([...a.payload]).toEqual([1, 0, 255]);
        expect(b.id).toBeGreaterThan(a.id);
        expect((await store.listReviewItems('r1')).map((i) => i.messageId)).toEqual(['cand-1', 'cand-2']);
        await store.decideReviewItem(a.id, 'approved', 'did:key:zFac', null, T0 + 10);
        expect((await store.listReviewItems('r1', 'pending')).map((i) => i.messageId)).toEqual(['cand-2']);
        expect((await store.listReviewItems('r1', 'approved')).map((i) => i.messageId)).toEqual(['cand-1']);
      });

      it('decides an item once; a second decision returns undefined and changes nothing', async () => {
        const { id } = await store.addReviewItem(item(1));
        const decided = await store.decideReviewItem(id, 'rejected', 'did:key:zFac', 'off topic', T0 + 9);
        expect(decided).toMatchObject({ id, status: 'rejected', decidedBy: 'did:key:zFac', decidedAt: T0 + 9, reason: 'off topic' });
        expect(await store.decideReviewItem(id, 'approved', 'did:key:zOther', null, T0 + 10)).toBeUndefined();
        expect(await store.decideReviewItem(9_999_999, 'approved', null, null, T0)).toBeUndefined();
        expect((await store.listReviewItems('r1'))[0]).toMatchObject({ status: 'rejected', decidedBy: 'did:key:zFac' });
      });

      it('is decided exactly once under concurrent decisions', async () => {
        const { id } = await store.addReviewItem(item(1));
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.decideReviewItem(id, i % 2 ? 'approved' : 'expired', `did:key:z${i}`, null, T0 + i)),
        );
        const winners = results.filter((r) => r !== undefined);
        expect(winners).toHaveLength(1);
        expect((await store.listReviewItems('r1'))[0]).toMatchObject({ status: winners[0]!.status, decidedBy: winners[0]!.decidedBy });
      });
    });

    describe('agent credentials', () => {
      it('puts, replaces, lists in id order and removes credentials', async () => {
        await store.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$a', createdAt: T0 });
        await store.putAgentCredential({ agentId: 'alpha', passwordHash: 'scrypt$b', createdAt: T0 });
        expect(await store.getAgentCredential('zeta')).toEqual({ agentId: 'zeta', passwordHash: 'scrypt$a', createdAt: T0 });
        await store.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$c', createdAt: T0 + 1 });
        expect((await store.getAgentCredential('zeta'))?.passwordHash).toBe('scrypt$c');
        expect((await store.listAgentCredentials()).map((c) => c.agentId)).toEqual(['alpha', 'zeta']);
        expect(await store.removeAgentCredential('zeta')).toBe(true);
        expect(await store.removeAgentCredential('zeta')).toBe(false);
        expect(await store.getAgentCredential('zeta')).toBeUndefined();
      });
    });

    describe('operators and enrollment', () => {
      it('puts operators; a second put changes the role and keeps createdAt', async () => {
        await store.putOperator({ did: 'did:key:zB', role: 'observer', createdAt: T0 + 1 });
        await store.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: T0 });
        await store.putOperator({ did: 'did:key:zB', role: 'facilitator', createdAt: T0 + 99 });
        expect(await store.getOperator('did:key:zB')).toEqual({ did: 'did:key:zB', role: 'facilitator', createdAt: T0 + 1 });
        expect(await store.getOperator('did:key:zNobody')).toBeUndefined();
        expect((await store.listOperators()).map((o) => o.did)).toEqual(['did:key:zA', 'did:key:zB']);
      });

      it('consumes an enrollment token once, and never after it expired', async () => {
        await store.createEnrollment('hash-1', 'observer', T0 + 1000);
        await store.createEnrollment('hash-2', 'facilitator', T0 + 1000);
        expect(await store.consumeEnrollment('hash-1', T0)).toBe('observer');
        expect(await store.consumeEnrollment('hash-1', T0)).toBeUndefined();
        expect(await store.consumeEnrollment('unknown', T0)).toBeUndefined();
        expect(await store.consumeEnrollment('hash-2', T0 + 1000)).toBeUndefined();
      });

      it('hands an enrollment token to exactly one of many concurrent consumers', async () => {
        await store.createEnrollment('hash-1', 'facilitator', T0 + 1000);
        const results = await Promise.all(Array.from({ length: 20 }, () => store.consumeEnrollment('hash-1', T0)));
        expect(results.filter((r) => r === 'facilitator')).toHaveLength(1);
        expect(results.filter((r) => r === undefined)).toHaveLength(19);
      });
    });

    describe('login challenges', () => {
      it('consumes a live challenge once, returning its expiry', async () => {
        await store.createChallenge('nonce-1', T0 + 60_000);
        expect(await store.consumeChallenge('nonce-1', T0)).toBe(T0 + 60_000);
        expect(await store.consumeChallenge('nonce-1', T0)).toBeUndefined();
        expect(await store.consumeChallenge('never-issued', T0)).toBeUndefined();
      });

      it('refuses an expired challenge', async () => {
        await store.createChallenge('nonce-1', T0 + 60_000);
        expect(await store.consumeChallenge('nonce-1', T0 + 60_000)).toBeUndefined();
      });

      it('hands a challenge to exactly one of many concurrent consumers', async () => {
        await store.createChallenge('nonce-1', T0 + 60_000);
        const results = await Promise.all(Array.from({ length: 20 }, () => store.consumeChallenge('nonce-1', T0)));
        expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      });
    });

    describe('sessions', () => {
      beforeEach(async () => {
        await store.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: T0 });
      });

      it('finds a session until it expires, and not after delete', async () => {
        await store.createSession('token-hash', { did: 'did:key:zA', role: 'facilitator', expiresAt: T0 + 1000 });
        expect(await store.getSession('token-hash', T0)).toEqual({ did: 'did:key:zA', role: 'facilitator', expiresAt: T0 + 1000 });
        expect(await store.getSession('token-hash', T0 + 999)).toBeDefined();
        expect(await store.getSession('token-hash', T0 + 1000)).toBeUndefined();
        expect(await store.getSession('other-hash', T0)).toBeUndefined();
        await store.deleteSession('token-hash');
        expect(await store.getSession('token-hash', T0)).toBeUndefined();
        await store.deleteSession('token-hash'); // deleting twice is harmless
      });

      it("reports the operator's current role, so a role change applies to open sessions", async () => {
        await store.createSession('token-hash', { did: 'did:key:zA', role: 'facilitator', expiresAt: T0 + 1000 });
        await store.putOperator({ did: 'did:key:zA', role: 'observer', createdAt: T0 });
        expect((await store.getSession('token-hash', T0))?.role).toBe('observer');
      });
    });

    describe('agora relay', () => {
      it('appendEvent stores an envelope and its thread together, in seq order, and serves them back', async () => {
        const calls: (string | undefined)[] = [];
        const decide: ThreadDecision = (thread) => {
          calls.push(thread?.threadId);
          return { ok: true, value: { state: pending('t1'), deadlineAt: T0 + 1000 } };
        };
        const first = await store.relay.appendEvent(relayEnvelope('e1', { threadId: 't1' }), decide);
        expect(first).toMatchObject({ outcome: 'stored', envelope: { id: 'e1', seq: expect.any(Number) }, thread: { threadId: 't1', version: 1, deadlineAt: T0 + 1000 } });
        const second = await store.relay.appendEvent(relayEnvelope('e2', { threadId: 't1', type: 'OFFER', receivedAt: T0 + 5 }), decide);
        expect(second).toMatchObject({ outcome: 'stored', thread: { version: 2, openedAt: T0, updatedAt: T0 + 5 } });
        expect(calls).toEqual([undefined, 't1']);
        const seqs = [first, second].map((o) => (o.outcome === 'stored' ? o.envelope.seq : 0));
        expect(seqs[1]).toBeGreaterThan(seqs[0]!);
        expect(await store.relay.headSeq()).toBe(seqs[1]);
        expect((await store.relay.threadEvents('t1', 10)).map((e) => e.id)).toEqual(['e1', 'e2']);
        expect(await store.relay.findDigest('e1')).toBe('digest-e1');
        expect(await store.relay.findDigest('nope')).toBeUndefined();
      });

      it('appendEvent: same id and digest is a duplicate, another digest a conflict, a refusal stores nothing', async () => {
        await store.relay.appendEvent(relayEnvelope('e1'), open);
        const head = await store.relay.headSeq();
        let decided = 0;
        const counting: ThreadDecision = (t) => (decided++, open(t));
        expect(await store.relay.appendEvent(relayEnvelope('e1'), counting)).toMatchObject({ outcome: 'duplicate', envelope: { id: 'e1', seq: head } });
        expect(await store.relay.appendEvent(relayEnvelope('e1', { digest: 'other' }), counting)).toEqual({ outcome: 'id_conflict' });
        expect(decided).toBe(0);
        const error = { code: 'INVALID_REQUEST' as const, message: 'no', details: { reason: 'thread_closed' as const } };
        expect(await store.relay.appendEvent(relayEnvelope('e2', { threadId: 'tx' }), () => ({ ok: false, error }))).toEqual({ outcome: 'refused', error });
        expect(await store.relay.headSeq()).toBe(head);
        expect(await store.relay.findDigest('e2')).toBeUndefined();
        expect(await store.relay.getThread('tx')).toBeUndefined();
      });

      it('appendEvent with a null decision stores the envelope and writes no thread (OACoP carriers)', async () => {
        const outcome = await store.relay.appendEvent(relayEnvelope('oc1', { threadId: 'urn:uuid:meet-1' }), () => ({ ok: true, value: null }));
        expect(outcome).toMatchObject({ outcome: 'stored', envelope: { id: 'oc1' } });
        expect('thread' in outcome && outcome.thread).toBeFalsy();
        expect(await store.relay.getThread('urn:uuid:meet-1')).toBeUndefined();
        expect((await store.relay.threadEvents('urn:uuid:meet-1', 10)).map((e) => e.id)).toEqual(['oc1']);
      });

      it('concurrent appends of one id store it once', async () => {
        const outcomes = await Promise.all([1, 2, 3].map(() => store.relay.appendEvent(relayEnvelope('race'), open)));
        expect(outcomes.map((o) => o.outcome).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
        expect((await store.relay.listEvents({ limit: 10 })).events).toHaveLength(1);
      });

      it('concurrent appends are decided one after another: each sees the thread the previous one wrote, a failure stays its own', async () => {
        const seen: (number | undefined)[] = [];
        const chain: ThreadDecision = (thread) => {
          seen.push(thread?.version);
          return open(thread);
        };
        const boom: ThreadDecision = () => {
          throw new Error('decision failed');
        };
        const results = await Promise.allSettled([
          store.relay.appendEvent(relayEnvelope('c1', { threadId: 'tc' }), chain),
          store.relay.appendEvent(relayEnvelope('c2', { threadId: 'tc' }), boom),
          store.relay.appendEvent(relayEnvelope('c3', { threadId: 'tc' }), chain),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        // An engine may run a decision again after rolling back a group (decisions are pure):
        // what counts is what the committed ones saw.
        expect(seen.slice(-2)).toEqual([undefined, 1]);
        expect((await store.relay.threadEvents('tc', 10)).map((e) => e.id)).toEqual(['c1', 'c3']);
        expect((await store.relay.getThread('tc'))?.version).toBe(2);
      });

      it('listEvents filters by seq, ts, liveness, recipient, sender, type and thread, and pages', async () => {
        await store.relay.appendEvent(relayEnvelope('a', { ts: T0 - 10, threadId: 'tA' }), open);
        await store.relay.appendEvent(relayEnvelope('b', { type: 'OFFER', sender: 'did:key:zAgent', recipient: 'did:key:zClient', threadId: 'tA', expiresAt: T0 + 10 }), open);
        await store.relay.appendEvent(relayEnvelope('c', { threadId: 'tC' }), open);
        const ids = async (q: Partial<Parameters<Store['relay']['listEvents']>[0]>) => (await store.relay.listEvents({ limit: 10, ...q })).events.map((e) => e.id);
        expect(await ids({})).toEqual(['a', 'b', 'c']);
        const [a] = (await store.relay.listEvents({ limit: 1 })).events;
        expect(await ids({ afterSeq: a!.seq })).toEqual(['b', 'c']);
        expect(await ids({ sinceTs: T0 })).toEqual(['b', 'c']);
        expect(await ids({ liveAt: T0 + 11 })).toEqual(['a', 'c']);
        expect(await ids({ recipient: 'did:key:zClient' })).toEqual(['b']);
        expect(await ids({ sender: 'did:key:zAgent' })).toEqual(['b']);
        expect(await ids({ type: 'OFFER' })).toEqual(['b']);
        expect(await ids({ threadId: 'tA' })).toEqual(['a', 'b']);
        const page = await store.relay.listEvents({ limit: 2 });
        expect([page.events.length, page.hasMore, page.headSeq]).toEqual([2, true, await store.relay.headSeq()]);
        await expect(store.relay.listEvents({ limit: 0 })).rejects.toThrow(RangeError);
      });

      it('updateThread is a compare-and-set on the version; due threads are listed by deadline', async () => {
        await store.relay.appendEvent(relayEnvelope('e1', { threadId: 't1' }), open);
        const thread = (await store.relay.getThread('t1'))!;
        expect(await store.relay.listDueThreads(T0 + 1000, 10)).toEqual([]);
        expect((await store.relay.listDueThreads(T0 + 1001, 10)).map((t) => t.threadId)).toEqual(['t1']);
        const ended: ThreadState = { ...pending('t1'), status: 'ERROR', ended: { type: 'timeout', phase: 'no_accept', from: 'PENDING', at: T0 + 2000 } } as ThreadState;
        const results = await Promise.all([1, 2].map(() => store.relay.updateThread('t1', thread.version, { state: ended, deadlineAt: null }, T0 + 2000)));
        expect(results.sort()).toEqual([false, true]);
        expect(await store.relay.getThread('t1')).toMatchObject({ version: thread.version + 1, deadlineAt: null, updatedAt: T0 + 2000, state: { status: 'ERROR' } });
        expect(await store.relay.listDueThreads(T0 + 10_000, 10)).toEqual([]);
      });

      it('listThreads finds threads by party and status, newest activity first', async () => {
        const decideFor = (client: string): ThreadDecision => (thread) => ({ ok: true, value: { state: pending(thread?.threadId ?? '', client), deadlineAt: null } });
        await store.relay.appendEvent(relayEnvelope('e1', { threadId: 't1', receivedAt: T0 }), decideFor('did:key:zOne'));
        await store.relay.appendEvent(relayEnvelope('e2', { threadId: 't2', receivedAt: T0 + 1 }), decideFor('did:key:zTwo'));
        expect((await store.relay.listThreads({ limit: 10 })).map((t) => t.threadId)).toEqual(['t2', 't1']);
        expect((await store.relay.listThreads({ party: 'did:key:zOne', limit: 10 })).map((t) => t.threadId)).toEqual(['t1']);
        expect((await store.relay.listThreads({ party: 'did:key:zAgent', limit: 10 })).map((t) => t.threadId)).toEqual(['t2', 't1']);
        expect((await store.relay.listThreads({ party: 'did:key:z%', limit: 10 })).map((t) => t.threadId)).toEqual([]);
        expect(await store.relay.listThreads({ status: 'COMPLETED', limit: 10 })).toEqual([]);
      });

      it('register keeps the newest registration per DID; an older one stores nothing', async () => {
        const reg = (id: string, ts: number) => relayEnvelope(id, { kind: 'registration', ts });
        expect(await store.relay.register(reg('r2', T0), directoryRecord('did:key:zA', T0, 'r2', 'second'))).toBe('stored');
        expect(await store.relay.register(reg('r2', T0), directoryRecord('did:key:zA', T0, 'r2', 'second'))).toBe('duplicate');
        expect(await store.relay.register(reg('r1', T0 - 1), directoryRecord('did:key:zA', T0 - 1, 'r1', 'first'))).toBe('stale');
        expect(await store.relay.findDigest('r1')).toBeUndefined();
        expect(await store.relay.register(reg('r3', T0 + 1), directoryRecord('did:key:zA', T0 + 1, 'r3', 'third'))).toBe('stored');
        expect(await store.relay.getRegistration('did:key:zA')).toMatchObject({ manifest: { name: 'third' }, envelopeId: 'r3' });
        expect((await store.relay.listRegistrations()).map((r) => r.did)).toEqual(['did:key:zA']);
        // Registrations are not events.
        expect((await store.relay.listEvents({ limit: 10 })).events).toEqual([]);
      });

      it('lastEventAt reports when each sender last had an event accepted', async () => {
        await store.relay.appendEvent(relayEnvelope('e1', { sender: 'did:key:zA', receivedAt: T0 }), open);
        await store.relay.appendEvent(relayEnvelope('e2', { sender: 'did:key:zA', receivedAt: T0 + 50, threadId: 't2' }), open);
        const seen = await store.relay.lastEventAt(['did:key:zA', 'did:key:zB']);
        expect([...seen]).toEqual([['did:key:zA', T0 + 50]]);
      });
    });

    describe('oacop ledger, bookings and agent state', () => {
      const booking = (threadId: string, start: number, end: number) => ({ owner: 'did:key:room', threadId, start, end, revision: 2, title: threadId, bookedAt: T0 });
      const noOverlap = (b: { start: number; end: number }) => (others: readonly { start: number; end: number }[]) =>
        others.some((o) => o.start < b.end && b.start < o.end) ? { ok: false as const, error: { code: 'OACOP_CONFLICT', message: 'taken' } } : { ok: true as const, value: undefined };

      it('records a burn once: the same again is a duplicate, another burner or amount a conflict', async () => {
        const burn = { txId: 'oap:tx:1', burnedBy: 'did:key:a', amount: '5', burnedAt: T0 };
        expect(await store.oacop.recordBurn(burn)).toBe('stored');
        expect(await store.oacop.recordBurn(burn)).toBe('duplicate');
        expect(await store.oacop.recordBurn({ ...burn, amount: '6' })).toBe('conflict');
        expect(await store.oacop.getBurn('oap:tx:1')).toEqual({ ...burn, usedFor: null });
        expect(await store.oacop.getBurn('oap:tx:none')).toBeUndefined();
      });

      it('a burn pays for one thread only, redelivery to the same thread included, even when used concurrently', async () => {
        await store.oacop.recordBurn({ txId: 'oap:tx:2', burnedBy: 'did:key:a', amount: '1', burnedAt: T0 });
        const used = await Promise.all(['t1', 't2', 't3'].map((t) => store.oacop.useBurn('oap:tx:2', t)));
        expect(used.filter(Boolean)).toHaveLength(1);
        const winner = (await store.oacop.getBurn('oap:tx:2'))!.usedFor!;
        expect(await store.oacop.useBurn('oap:tx:2', winner)).toBe(true);
        expect(await store.oacop.useBurn('oap:tx:unknown', 't1')).toBe(false);
      });

      it('books a slot only when the decision over the other bookings accepts, once under concurrency; unbooks', async () => {
        const results = await Promise.all(['a', 'b'].map((t) => store.oacop.book(booking(t, T0, T0 + 60_000), noOverlap({ start: T0, end: T0 + 60_000 }))));
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.find((r) => !r.ok)).toMatchObject({ error: { code: 'OACOP_CONFLICT' } });
        const [kept] = await store.oacop.listBookings('did:key:room', T0, T0 + 1);
        // The same thread re-books over itself (a moved confirmation): its own row is not an "other".
        expect((await store.oacop.book({ ...booking(kept!.threadId, T0 + 30_000, T0 + 90_000), revision: 3 }, noOverlap({ start: T0 + 30_000, end: T0 + 90_000 }))).ok).toBe(true);
        expect(await store.oacop.listBookings('did:key:room', 0, T0 * 2)).toEqual([{ ...booking(kept!.threadId, T0 + 30_000, T0 + 90_000), revision: 3 }]);
        expect(await store.oacop.listBookings('did:key:room', T0 + 90_000, T0 * 2)).toEqual([]);
        expect(await store.oacop.unbook('did:key:room', kept!.threadId)).toBe(true);
        expect(await store.oacop.unbook('did:key:room', kept!.threadId)).toBe(false);
      });

      it('keeps an agent\'s own state per key', async () => {
        expect(await store.oacop.getAgentState('did:key:a', 'thread:1')).toBeUndefined();
        await store.oacop.putAgentState('did:key:a', 'thread:1', { revision: 1 }, T0);
        await store.oacop.putAgentState('did:key:a', 'thread:1', { revision: 2 }, T0 + 1);
        expect(await store.oacop.getAgentState('did:key:a', 'thread:1')).toEqual({ revision: 2 });
        expect(await store.oacop.getAgentState('did:key:b', 'thread:1')).toBeUndefined();
      });
    });

    describe('audit log', () => {
      it('appends entries with increasing ids and pages newest first, by room', async () => {
        const entries = [];
        for (let n = 0; n < 25; n++) {
          entries.push(
            await store.appendAudit({
              at: T0 + n,
              actorDid: 'did:key:zA',
              action: n % 2 ? 'mic_grant' : 'mic_revoke',
              roomId: n % 5 === 0 ? null : n % 2 ? 'r1' : 'r2',
              messageId: n % 2 ? `m${n}` : null,
              details: { n, nested: { ok: true }, list: [1, 'two'] },
            }),
          );
        }
        for (let i = 1; i < entries.length; i++) expect(entries[i]!.id).toBeGreaterThan(entries[i - 1]!.id);
        expect(entries[3]).toMatchObject({ at: T0 + 3, action: 'mic_grant', roomId: 'r1', messageId: 'm3', details: { n: 3, nested: { ok: true }, list: [1, 'two'] } });

        const seen: number[] = [];
        let before: number | undefined;
        for (;;) {
          const page = await store.listAudit({ limit: 7, ...(before === undefined ? {} : { before }) });
          if (page.length === 0) break;
          seen.push(...page.map((e) => e.id));
          before = page.at(-1)!.id;
        }
        expect(seen).toEqual(entries.map((e) => e.id).reverse());

        const r1 = await store.listAudit({ roomId: 'r1', limit: 100 });
        expect(r1.map((e) => e.id)).toEqual(entries.filter((e) => e.roomId === 'r1').map((e) => e.id).reverse());
        const olderR1 = await store.listAudit({ roomId: 'r1', limit: 2, before: r1[2]!.id });
        expect(olderR1.map((e) => e.id)).toEqual(r1.slice(3, 5).map((e) => e.id));
      });
    });
  });
}
