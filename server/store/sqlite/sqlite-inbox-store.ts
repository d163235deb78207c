// SQLite side of inbox-store.ts: one statement each.
import type Database from 'better-sqlite3';
import {
  DISMISSAL_KEPT_MS,
  toDismissal,
  type DismissalRow,
  type InboxDismissal,
  type InboxStore,
} from '../inbox-store';

export class SqliteInboxStore implements InboxStore {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  async dismiss(d: InboxDismissal): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO inbox_dismissals (item_id, since, dismissed_by, dismissed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (item_id) DO UPDATE SET since = max(since, excluded.since),
           dismissed_by = excluded.dismissed_by, dismissed_at = excluded.dismissed_at`,
      )
      .run(d.itemId, d.since, d.by, d.at);
  }

  async listDismissals(): Promise<InboxDismissal[]> {
    const rows = this.#db.prepare('SELECT * FROM inbox_dismissals ORDER BY item_id').all() as DismissalRow[];
    return rows.map(toDismissal);
  }

  async pruneDismissals(now: number): Promise<number> {
    return this.#db.prepare('DELETE FROM inbox_dismissals WHERE dismissed_at < ?').run(now - DISMISSAL_KEPT_MS).changes;
  }
}
