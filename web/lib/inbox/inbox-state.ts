// The inbox as the browser holds it: a snapshot, then the stream's changes applied in order
// (shared/contract/inbox.ts). Pure, so the reducer is tested without a server or a DOM.
import type { InboxItem, InboxList, InboxStreamEvent, InboxSummary } from '@shared/contract/inbox';
import { compareItems } from '@shared/inbox/order';

export interface InboxState {
  /** In inbox order: most urgent first, then oldest first (shared/inbox/order.ts). */
  readonly items: readonly InboxItem[];
  readonly summary: InboxSummary;
  readonly version: number;
}

export const fromList = (list: InboxList): InboxState => ({
  items: [...list.items].sort(compareItems),
  summary: list.summary,
  version: list.version,
});

/**
 * One stream event applied. A snapshot replaces everything (a reconnect's fresh start); any other
 * event older than or equal to what is held is dropped, since the list already includes it (a
 * GET answered after the stream had moved on). Before the first snapshot nothing else applies.
 */
export function applyInboxEvent(state: InboxState | null, event: InboxStreamEvent): InboxState | null {
  if (event.type === 'snapshot') return fromList(event.list);
  if (state === null || event.version <= state.version) return state;
  const { version } = event;
  switch (event.type) {
    case 'summary':
      return { ...state, summary: event.summary, version };
    case 'remove':
      return { ...state, items: state.items.filter((i) => i.id !== event.id), version };
    case 'upsert': {
      const rest = state.items.filter((i) => i.id !== event.item.id);
      return { ...state, items: insertSorted(rest, event.item), version };
    }
  }
}

/** Binary insertion: one upsert into 10,000 items must not re-sort them all. */
function insertSorted(items: readonly InboxItem[], item: InboxItem): InboxItem[] {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareItems(items[mid]!, item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return [...items.slice(0, lo), item, ...items.slice(lo)];
}

/** Which of `next`'s items were not in `previous`: what is new since the last look. */
export function newItems(previous: readonly InboxItem[], next: readonly InboxItem[]): InboxItem[] {
  const seen = new Set(previous.map((i) => i.id));
  return next.filter((i) => !seen.has(i.id));
}

/** The room an item belongs to, if it belongs to one (for per-room mute and the row's label). */
export function roomOf(item: InboxItem): string | null {
  const { ref } = item;
  return 'roomId' in ref ? ref.roomId : null;
}
