// PostgreSQL side of inbox-store.ts: one statement each, as on SQLite.
import type { Pool } from 'pg';
import {
  DISMISSAL_KEPT_MS,
  toDismissal,
  type DismissalRow,
  type InboxDismissal,
  type InboxStore,
} from '../inbox-store';

export class PgInboxStore implements InboxStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async dismiss(d: InboxDismissal): Promise<void> {
    await this.#pool.query(
      `INSERT INTO inbox_dismissals (item_id, since, dismissed_by, dismissed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (item_id) DO UPDATE SET since = greatest(inbox_dismissals.since, excluded.since),
         dismissed_by = excluded.dismissed_by, dismissed_at = excluded.dismissed_at`,
      [d.itemId, d.since, d.by, d.at],
    );
  }

  async listDismissals(): Promise<InboxDismissal[]> {
    const { rows } = await this.#pool.query<DismissalRow>('SELECT * FROM inbox_dismissals ORDER BY item_id');
    return rows.map(toDismissal);
  }

  async pruneDismissals(now: number): Promise<number> {
    const { rowCount } = await this.#pool.query('DELETE FROM inbox_dismissals WHERE dismissed_at < $1', [
      now - DISMISSAL_KEPT_MS,
    ]);
    return rowCount ?? 0;
  }
}
