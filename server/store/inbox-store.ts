// The inbox's own rows (`store.inbox`): operators' dismissals of items (decisions-server.md §75).
// Items themselves are not stored (they follow their domains' facts, §58); a dismissal hides an
// item as it was when dismissed, so the same item id with a later `since` (a new fact) shows again.
// SQLite: sqlite/sqlite-inbox-store.ts; PostgreSQL: pg/pg-inbox-store.ts; both held to
// contract/inbox-dismissals.ts.

export interface InboxDismissal {
  readonly itemId: string;
  /** The item's `since` when it was dismissed. */
  readonly since: number;
  /** The operator's did. */
  readonly by: string;
  readonly at: number;
}

/** A dismissal is kept this long; an item still there after it would show again (decisions-server.md §75). */
export const DISMISSAL_KEPT_MS = 30 * 24 * 3_600_000;

export interface InboxStore {
  /** Records a dismissal; over an earlier one of the same item, keeps the later `since`. */
  dismiss(dismissal: InboxDismissal): Promise<void>;
  /** Every dismissal kept, for the board at start (bounded by DISMISSAL_KEPT_MS and the dismiss rate). */
  listDismissals(): Promise<InboxDismissal[]>;
  /** Deletes dismissals made before `now - DISMISSAL_KEPT_MS`; answers how many. */
  pruneDismissals(now: number): Promise<number>;
}

export interface DismissalRow {
  item_id: string;
  since: number;
  dismissed_by: string;
  dismissed_at: number;
}

export const toDismissal = (r: DismissalRow): InboxDismissal => ({
  itemId: r.item_id,
  since: r.since,
  by: r.dismissed_by,
  at: r.dismissed_at,
});
