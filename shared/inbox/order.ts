// The inbox's one order (decisions-server.md, "The inbox"): most urgent first, then the oldest
// cause first (what has waited longest), then by id so two servers and the browser agree on ties.
import type { InboxItem, Urgency } from '../contract/inbox';

const RANK: Readonly<Record<Urgency, number>> = { now: 0, soon: 1, info: 2 };

export type Ordered = Pick<InboxItem, 'id' | 'urgency' | 'since'>;

/** Negative when `a` comes first. A total order: only equal ids compare equal. */
export function compareItems(a: Ordered, b: Ordered): number {
  return RANK[a.urgency] - RANK[b.urgency] || a.since - b.since || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A new array in inbox order; the input is left as it was. */
export const orderItems = <T extends Ordered>(items: readonly T[]): T[] => [...items].sort(compareItems);
