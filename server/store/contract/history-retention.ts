// The Store contract, history retention per room (decisions-server.md §25): a room's setting, and
// the sweep that deletes its oldest messages beyond it. Rooms without a setting keep everything;
// the audit log, review items and grants are never touched.
import { describe, expect, it } from 'vitest';
import { RETENTION_BATCH } from '../rows/room-rows';
import type { Store } from '../store';
import { T0, cursors, grant, message } from './fixtures';

const DAY = 86_400_000;

async function fill(store: Store, roomId: string, n: number, receivedAt = (i: number) => T0 + i) {
  const stored = [];
  for (let i = 0; i < n; i += 1)
    stored.push(await store.rooms.appendMessage(message(roomId, i, { receivedAt: receivedAt(i) })));
  return stored;
}

const all = async (store: Store, roomId: string) =>
  (await store.rooms.listMessages({ roomId, limit: 10_000 })).messages;

export function describeHistoryRetentionContract(store: () => Store): void {
  describe('history retention', () => {
    it("setRetention stores a room's setting, shown by getRoom and listRooms; null clears it; an unknown room is ROOM_NOT_FOUND", async () => {
      await store().rooms.ensureRoom({ id: 'r1', name: 'R', moderation: 'auto', createdAt: T0 });
      expect((await store().rooms.getRoom('r1'))?.retention).toBeUndefined();
      await store().rooms.setRetention('r1', { maxMessages: 500, maxAgeDays: null });
      expect((await store().rooms.getRoom('r1'))?.retention).toEqual({ maxMessages: 500, maxAgeDays: null });
      await store().rooms.setRetention('r1', { maxMessages: null, maxAgeDays: 30 });
      expect((await store().rooms.listRooms())[0]?.retention).toEqual({ maxMessages: null, maxAgeDays: 30 });
      await store().rooms.setRetention('r1', null);
      expect(await store().rooms.getRoom('r1')).toEqual({ id: 'r1', name: 'R', moderation: 'auto', createdAt: T0 });
      await expect(store().rooms.setRetention('ghost', { maxMessages: 1, maxAgeDays: null })).rejects.toMatchObject({
        code: 'ROOM_NOT_FOUND',
      });
    });

    it('keeps at most N newest messages of a room with retention N, and everything of a room without a setting', async () => {
      await store().rooms.ensureRoom({ id: 'kept', name: 'Kept', moderation: 'auto', createdAt: T0 });
      await store().rooms.ensureRoom({ id: 'capped', name: 'Capped', moderation: 'auto', createdAt: T0 });
      const kept = await fill(store(), 'kept', 30);
      const capped = await fill(store(), 'capped', 30);
      await store().rooms.setRetention('capped', { maxMessages: 8, maxAgeDays: null });
      expect(await store().rooms.applyRetention(T0 + DAY)).toEqual([{ roomId: 'capped', deleted: 22 }]);
      expect(cursors(await all(store(), 'capped'))).toEqual(cursors(capped.slice(-8)));
      expect(cursors(await all(store(), 'kept'))).toEqual(cursors(kept));
      const rooms = await store().rooms.listRooms();
      expect(rooms.map((r) => [r.id, r.messageCount])).toEqual([
        ['capped', 8],
        ['kept', 30],
      ]);
      // A second sweep has nothing left to do; later messages get cursors after every earlier one.
      expect(await store().rooms.applyRetention(T0 + DAY)).toEqual([]);
      const next = await store().rooms.appendMessage(message('capped', 99));
      expect(next.cursor).toBeGreaterThan(Math.max(...cursors(kept), ...cursors(capped)));
    });

    it('keeps nothing older than the age of a room with an age limit', async () => {
      await store().rooms.ensureRoom({ id: 'aged', name: 'Aged', moderation: 'auto', createdAt: T0 });
      const stored = await fill(store(), 'aged', 10, (i) => T0 + i * DAY); // one a day for ten days
      await store().rooms.setRetention('aged', { maxMessages: null, maxAgeDays: 3 });
      const now = T0 + 9 * DAY + 1; // the newest is 1 ms old; three days back is T0 + 6 days + 1 ms
      expect(await store().rooms.applyRetention(now)).toEqual([{ roomId: 'aged', deleted: 7 }]);
      const left = await all(store(), 'aged');
      expect(cursors(left)).toEqual(cursors(stored.slice(7)));
      expect(left.every((m) => m.receivedAt >= now - 3 * DAY)).toBe(true);
    });

    it('with both limits, keeps what both allow', async () => {
      await store().rooms.ensureRoom({ id: 'both', name: 'Both', moderation: 'auto', createdAt: T0 });
      const stored = await fill(store(), 'both', 10, (i) => T0 + i * DAY);
      await store().rooms.setRetention('both', { maxMessages: 5, maxAgeDays: 2 });
      await store().rooms.applyRetention(T0 + 9 * DAY);
      expect(cursors(await all(store(), 'both'))).toEqual(cursors(stored.slice(7)));
      await store().rooms.setRetention('both', { maxMessages: 2, maxAgeDays: 30 });
      await store().rooms.applyRetention(T0 + 9 * DAY);
      expect(cursors(await all(store(), 'both'))).toEqual(cursors(stored.slice(8)));
    });

    it('deletes beyond one batch in one sweep, every row counted once', async () => {
      await store().rooms.ensureRoom({ id: 'big', name: 'Big', moderation: 'auto', createdAt: T0 });
      const total = RETENTION_BATCH + 12;
      for (let from = 0; from < total; from += 500) {
        await Promise.all(
          Array.from({ length: Math.min(500, total - from) }, (_, i) =>
            store().rooms.appendMessage(message('big', from + i)),
          ),
        );
      }
      await store().rooms.setRetention('big', { maxMessages: 5, maxAgeDays: null });
      expect(await store().rooms.applyRetention(T0)).toEqual([{ roomId: 'big', deleted: total - 5 }]);
      expect((await all(store(), 'big')).map((m) => m.messageId)).toEqual(
        Array.from({ length: 5 }, (_, i) => `m-big-${total - 5 + i}`),
      );
      expect((await store().rooms.listRooms())[0]).toMatchObject({ messageCount: 5 });
    });

    it('never deletes audit entries, review items or grants, whatever it deletes from history', async () => {
      await store().rooms.ensureRoom({ id: 'r1', name: 'R', moderation: 'review', createdAt: T0 });
      await fill(store(), 'r1', 5);
      await store().rooms.putGrant(grant());
      const item = await store().rooms.addReviewItem({
        roomId: 'r1',
        agentId: 'agent-a',
        taskId: 't1',
        messageId: 'm-r1-0',
        payload: new Uint8Array([1]),
        submittedAt: T0,
      });
      await store().access.appendAudit({
        at: T0,
        actorDid: 'did:key:z6MkOperator',
        action: 'review.approve',
        roomId: 'r1',
        messageId: 'm-r1-0',
        details: { itemId: item.id },
      });
      await store().rooms.setRetention('r1', { maxMessages: 1, maxAgeDays: 1 });
      await store().rooms.applyRetention(T0 + 30 * DAY);
      expect(await all(store(), 'r1')).toEqual([]);
      expect(await store().access.listAudit({ roomId: 'r1', limit: 10 })).toHaveLength(1);
      expect(await store().rooms.listReviewItems('r1')).toHaveLength(1);
      expect(await store().rooms.getGrant('r1', 'agent-a', 't1')).toBeDefined();
      expect((await store().rooms.listRooms())[0]).toMatchObject({ messageCount: 0 });
    });
  });
}
