// A room's whole history read back from a store, oldest first (for tests that check what survived).
import type { StoredRoomMessage, Store } from '../store/store';

export async function allMessages(store: Store, roomId: string): Promise<StoredRoomMessage[]> {
  const out: StoredRoomMessage[] = [];
  // Forward from the start: without `after` a page is the newest one.
  let cursor = 0;
  for (;;) {
    const page = await store.rooms.listMessages({ roomId, limit: 5_000, after: cursor });
    out.push(...page.messages);
    if (!page.hasMore) return out;
    cursor = page.messages.at(-1)?.cursor ?? cursor;
  }
}
