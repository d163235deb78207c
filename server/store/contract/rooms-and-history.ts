// The Store contract, its rooms and history: rooms, their messages (cursors, paging, filters)
// and the audit log.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { describe, expect, it } from 'vitest';
import type { NewRoomMessage, Store, StoredRoomMessage, TopicKind } from '../store';
import { T0, cursors, message } from './fixtures';

export function describeRoomsAndHistoryContract(store: () => Store): void {
  describe('rooms', () => {
    it('ensureRoom creates a room once and then returns it unchanged', async () => {
      const created = await store().rooms.ensureRoom({ id: 'r1', name: 'Launch', moderation: 'auto', createdAt: T0 });
      expect(created).toEqual({ id: 'r1', name: 'Launch', moderation: 'auto', createdAt: T0 });
      const again = await store().rooms.ensureRoom({
        id: 'r1',
        name: 'Other name',
        moderation: 'review',
        createdAt: T0 + 5,
      });
      expect(again).toEqual(created);
      expect(await store().rooms.getRoom('r1')).toEqual(created);
      expect(await store().rooms.getRoom('nope')).toBeUndefined();
    });

    it('ensureRoom without createdAt stamps the current time', async () => {
      const before = Date.now();
      const room = await store().rooms.ensureRoom({ id: 'r1', name: 'Now', moderation: 'auto' });
      expect(room.createdAt).toBeGreaterThanOrEqual(before);
      expect(room.createdAt).toBeLessThanOrEqual(Date.now());
    });

    it('setModeration switches the mode and refuses an unknown room with ROOM_NOT_FOUND', async () => {
      await store().rooms.ensureRoom({ id: 'r1', name: 'R', moderation: 'auto', createdAt: T0 });
      await store().rooms.setModeration('r1', 'review');
      expect((await store().rooms.getRoom('r1'))?.moderation).toBe('review');
      await expect(store().rooms.setModeration('ghost', 'review')).rejects.toMatchObject({ code: 'ROOM_NOT_FOUND' });
      expect(await store().rooms.getRoom('ghost')).toBeUndefined();
    });

    it('listRooms reports message counts and last activity, rooms ordered by id', async () => {
      await store().rooms.ensureRoom({ id: 'r2', name: 'Quiet', moderation: 'review', createdAt: T0 });
      await store().rooms.ensureRoom({ id: 'r1', name: 'Busy', moderation: 'auto', createdAt: T0 });
      for (let n = 1; n <= 5; n++) await store().rooms.appendMessage(message('r1', n));
      expect(await store().rooms.listRooms()).toEqual([
        { id: 'r1', name: 'Busy', moderation: 'auto', createdAt: T0, messageCount: 5, lastActivityAt: T0 + 5 },
        { id: 'r2', name: 'Quiet', moderation: 'review', createdAt: T0, messageCount: 0, lastActivityAt: null },
      ]);
    });

    it('lastActivityAt is the latest receivedAt even when a later cursor carries an earlier time', async () => {
      await store().rooms.appendMessage(message('r1', 1, { receivedAt: T0 + 100 }));
      await store().rooms.appendMessage(message('r1', 2, { receivedAt: T0 + 50 }));
      const [room] = await store().rooms.listRooms();
      expect(room).toMatchObject({ messageCount: 2, lastActivityAt: T0 + 100 });
    });
    it('counts exactly what was stored when appends of one moment share a commit and one of them fails', async () => {
      await store().rooms.ensureRoom({ id: 'r1', name: 'R', moderation: 'auto', createdAt: T0 });
      const results = await Promise.allSettled([
        store().rooms.appendMessage(message('r1', 1, { receivedAt: T0 + 40 })),
        store().rooms.appendMessage(message('r2', 2, { receivedAt: T0 + 20 })),
        // Outside the topic-kind check: refused by the database, and nothing of it may count.
        store().rooms.appendMessage(message('r1', 3, { receivedAt: T0 + 90, topicKind: 'bogus' as TopicKind })),
        store().rooms.appendMessage(message('r1', 4, { receivedAt: T0 + 30 })),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await store().rooms.listRooms()).toMatchObject([
        // The latest time, not the last row's.
        { id: 'r1', messageCount: 2, lastActivityAt: T0 + 40 },
        { id: 'r2', messageCount: 1, lastActivityAt: T0 + 20 },
      ]);
      const { messages } = await store().rooms.listMessages({ roomId: 'r1', limit: 10 });
      expect(messages.map((m) => m.receivedAt)).toEqual([T0 + 40, T0 + 30]);
      // All of one moment stored: the latest time again, not the last row's.
      await Promise.all(
        [70, 60, 65].map((at, i) => store().rooms.appendMessage(message('r3', 10 + i, { receivedAt: T0 + at }))),
      );
      expect((await store().rooms.listRooms()).find((r) => r.id === 'r3')).toMatchObject({
        messageCount: 3,
        lastActivityAt: T0 + 70,
      });
    });
  });

  describe('messages', () => {
    it('gives every message a strictly increasing cursor across rooms', async () => {
      const stored: StoredRoomMessage[] = [];
      for (let n = 0; n < 30; n++)
        stored.push(await store().rooms.appendMessage(message(n % 3 === 0 ? 'r2' : 'r1', n)));
      for (let i = 1; i < stored.length; i++) expect(stored[i]!.cursor).toBeGreaterThan(stored[i - 1]!.cursor);
      expect(stored.every((m) => Number.isSafeInteger(m.cursor))).toBe(true);
    });

    it('keeps payload bytes exactly and round-trips every field, nulls included', async () => {
      const raw = Uint8Array.of(0, 255, 0xc3, 0x28, 10, 0, 0x7b); // not UTF-8, with NULs
      const heartbeat: NewRoomMessage = {
        roomId: 'r1',
        topic: 'rooms/r1/agents/bot/heartbeat',
        topicKind: 'heartbeat',
        topicAgentId: 'bot',
        messageId: null,
        type: null,
        fromId: null,
        payload: raw,
        receivedAt: T0,
      };
      const appended = await store().rooms.appendMessage(heartbeat);
      const { messages } = await store().rooms.listMessages({ roomId: 'r1', limit: 10 });
      expect(messages).toHaveLength(1);
      const [stored] = messages;
      const { payload: _payload, ...fields } = heartbeat;
      expect(stored).toMatchObject({ cursor: appended.cursor, ...fields });
      expect(stored!.payload).toBeInstanceOf(Uint8Array);
      expect([...stored!.payload]).toEqual([...raw]);
    });

    it('creates the room of a message to an unknown room (AOR rooms are implicit)', async () => {
      await store().rooms.appendMessage(message('fresh', 1));
      expect(await store().rooms.getRoom('fresh')).toEqual({
        id: 'fresh',
        name: 'fresh',
        moderation: 'auto',
        createdAt: T0 + 1,
      });
    });

    it('answers an empty or unknown room with an empty page', async () => {
      expect(await store().rooms.listMessages({ roomId: 'nobody', limit: 10 })).toEqual({
        messages: [],
        hasMore: false,
      });
    });

    it('pages back from the newest over 250 messages without gaps or duplicates, each page ascending', async () => {
      const all: number[] = [];
      for (let n = 0; n < 250; n++) {
        all.push((await store().rooms.appendMessage(message('r1', n))).cursor);
        if (n % 10 === 0) await store().rooms.appendMessage(message('other', n)); // interleaved noise
      }
      const seen: number[] = [];
      let page = await store().rooms.listMessages({ roomId: 'r1', limit: 40 });
      for (;;) {
        const pageCursors = cursors(page.messages);
        expect(pageCursors).toEqual([...pageCursors].sort((a, b) => a - b));
        expect(page.messages.every((m) => m.roomId === 'r1')).toBe(true);
        seen.unshift(...pageCursors);
        if (!page.hasMore) break;
        page = await store().rooms.listMessages({ roomId: 'r1', limit: 40, before: pageCursors[0]! });
      }
      expect(seen).toEqual(all);
      expect(page.messages).toHaveLength(250 % 40);
    });

    it('pages forward from a cursor (backfill) without gaps or duplicates', async () => {
      const all: number[] = [];
      for (let n = 0; n < 250; n++) all.push((await store().rooms.appendMessage(message('r1', n))).cursor);
      const seen: number[] = [];
      let after = 0;
      for (;;) {
        const page = await store().rooms.listMessages({ roomId: 'r1', limit: 64, after });
        seen.push(...cursors(page.messages));
        if (!page.hasMore) break;
        after = page.messages.at(-1)!.cursor;
      }
      expect(seen).toEqual(all);
      const tail = await store().rooms.listMessages({ roomId: 'r1', limit: 10, after: all.at(-1)! });
      expect(tail).toEqual({ messages: [], hasMore: false });
    });

    it('hasMore is false when a page ends exactly at the last message', async () => {
      for (let n = 0; n < 10; n++) await store().rooms.appendMessage(message('r1', n));
      expect((await store().rooms.listMessages({ roomId: 'r1', limit: 10 })).hasMore).toBe(false);
      expect((await store().rooms.listMessages({ roomId: 'r1', limit: 9 })).hasMore).toBe(true);
    });

    it('with both before and after, returns the newest page inside the range', async () => {
      const all: number[] = [];
      for (let n = 0; n < 20; n++) all.push((await store().rooms.appendMessage(message('r1', n))).cursor);
      const page = await store().rooms.listMessages({ roomId: 'r1', limit: 3, after: all[4]!, before: all[15]! });
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
          await store().rooms.appendMessage(
            message('r1', n, {
              topicKind,
              topicAgentId: perAgent ? (n % 4 === 0 ? 'bob' : 'carol') : null,
              type: n % 3 === 0 ? 'task' : n % 3 === 1 ? 'chat' : 'result',
              fromId: n % 5 === 0 ? 'bob' : 'alice',
            }),
          ),
        );
      }
      const expectFilter = async (
        query: Omit<Parameters<Store['rooms']['listMessages']>[0], 'roomId' | 'limit'>,
        keep: (m: StoredRoomMessage) => boolean,
      ) => {
        const wanted = cursors(stored.filter(keep));
        expect(wanted.length).toBeGreaterThan(0);
        const seen: number[] = [];
        let before: number | undefined;
        for (;;) {
          const page = await store().rooms.listMessages({
            roomId: 'r1',
            limit: 4,
            ...query,
            ...(before === undefined ? {} : { before }),
          });
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
        (m) =>
          m.type === 'chat' &&
          (m.fromId === 'carol' || m.topicAgentId === 'carol') &&
          (m.topicKind === 'heartbeat' || m.topicKind === 'inbox'),
      );
      // An empty list filters nothing, like an absent one.
      await expectFilter({ types: [], topicKinds: [] }, () => true);
      const none = await store().rooms.listMessages({ roomId: 'r1', limit: 10, types: ['no-such-type'] });
      expect(none).toEqual({ messages: [], hasMore: false });
    });

    it('refuses a limit that is not a positive integer', async () => {
      await expect(store().rooms.listMessages({ roomId: 'r1', limit: 0 })).rejects.toThrow(RangeError);
      await expect(store().rooms.listMessages({ roomId: 'r1', limit: 2.5 })).rejects.toThrow(RangeError);
    });
  });

  describe('audit log', () => {
    it('appends entries with increasing ids and pages newest first, by room', async () => {
      const entries = [];
      for (let n = 0; n < 25; n++) {
        entries.push(
          await store().access.appendAudit({
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
      expect(entries[3]).toMatchObject({
        at: T0 + 3,
        action: 'mic_grant',
        roomId: 'r1',
        messageId: 'm3',
        details: { n: 3, nested: { ok: true }, list: [1, 'two'] },
      });

      const seen: number[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await store().access.listAudit({ limit: 7, ...(before === undefined ? {} : { before }) });
        if (page.length === 0) break;
        seen.push(...page.map((e) => e.id));
        before = page.at(-1)!.id;
      }
      expect(seen).toEqual(entries.map((e) => e.id).reverse());

      const r1 = await store().access.listAudit({ roomId: 'r1', limit: 100 });
      expect(r1.map((e) => e.id)).toEqual(
        entries
          .filter((e) => e.roomId === 'r1')
          .map((e) => e.id)
          .reverse(),
      );
      const olderR1 = await store().access.listAudit({ roomId: 'r1', limit: 2, before: r1[2]!.id });
      expect(olderR1.map((e) => e.id)).toEqual(r1.slice(3, 5).map((e) => e.id));
    });
  });
}
