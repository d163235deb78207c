// SQLite side of oacop-store.ts. Decisions run inside IMMEDIATE transactions on the one
// connection, so a burn is used once and a slot booked once.
import type Database from 'better-sqlite3';
import { ok, type Result } from '@shared/errors';
import type { BookingDecision, BurnOutcome, BurnRecordRow, CalendarBooking, OacopStore } from '../oacop-store';
import { toBooking, toBurn, type BookingRow, type BurnRow } from '../rows/oacop-rows';
import { fromUnits, toUnits } from '@shared/oacop/ledger-amount';

export class SqliteOacopStore implements OacopStore {
  readonly #db: Database.Database;
  readonly #book: Database.Transaction<(booking: CalendarBooking, decide: BookingDecision) => Result<void>>;
  readonly #recordBurn: Database.Transaction<(burn: Omit<BurnRecordRow, 'usedFor'>) => BurnOutcome>;
  readonly #credit: Database.Transaction<(did: string, amount: string, at: number) => string>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#book = db.transaction((booking: CalendarBooking, decide: BookingDecision) => {
      const others = (
        db
          .prepare('SELECT * FROM oacop_bookings WHERE owner = ? AND thread_id <> ? ORDER BY start_ms')
          .all(booking.owner, booking.threadId) as BookingRow[]
      ).map(toBooking);
      const decided = decide(others);
      if (!decided.ok) return decided;
      db.prepare(
        `INSERT INTO oacop_bookings (owner, thread_id, start_ms, end_ms, revision, title, booked_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (owner, thread_id) DO UPDATE SET start_ms = excluded.start_ms, end_ms = excluded.end_ms,
           revision = excluded.revision, title = excluded.title, booked_at = excluded.booked_at`,
      ).run(
        booking.owner,
        booking.threadId,
        booking.start,
        booking.end,
        booking.revision,
        booking.title,
        booking.bookedAt,
      );
      return ok(undefined);
    });
    this.#recordBurn = db.transaction((burn: Omit<BurnRecordRow, 'usedFor'>): BurnOutcome => {
      const known = db.prepare('SELECT * FROM oacop_burns WHERE tx_id = ?').get(burn.txId) as BurnRow | undefined;
      if (known) return known.burned_by === burn.burnedBy && known.amount === burn.amount ? 'duplicate' : 'conflict';
      // SQLite has no exact decimals: the units are text, the arithmetic a bigint, inside this transaction.
      const held = this.#units(burn.burnedBy);
      const cost = toUnits(burn.amount);
      if (held < cost) return 'insufficient';
      db.prepare('UPDATE oacop_balances SET units = ?, updated_at = ? WHERE did = ?').run(
        (held - cost).toString(),
        burn.burnedAt,
        burn.burnedBy,
      );
      db.prepare(
        'INSERT INTO oacop_burns (tx_id, burned_by, amount, burned_at, used_for) VALUES (?, ?, ?, ?, NULL)',
      ).run(burn.txId, burn.burnedBy, burn.amount, burn.burnedAt);
      return 'stored';
    });
    this.#credit = db.transaction((did: string, amount: string, at: number): string => {
      const next = this.#units(did) + toUnits(amount);
      db.prepare(
        `INSERT INTO oacop_balances (did, units, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (did) DO UPDATE SET units = excluded.units, updated_at = excluded.updated_at`,
      ).run(did, next.toString(), at);
      return fromUnits(next);
    });
  }

  #units(did: string): bigint {
    const row = this.#db.prepare('SELECT units FROM oacop_balances WHERE did = ?').get(did) as
      { units: string } | undefined;
    return row === undefined ? 0n : BigInt(row.units);
  }

  async credit(did: string, amount: string, at: number): Promise<string> {
    return this.#credit.immediate(did, amount, at);
  }

  async balanceOf(did: string): Promise<string> {
    return fromUnits(this.#units(did));
  }

  async recordBurn(burn: Omit<BurnRecordRow, 'usedFor'>): Promise<BurnOutcome> {
    return this.#recordBurn.immediate(burn);
  }

  async getBurn(txId: string): Promise<BurnRecordRow | undefined> {
    const row = this.#db.prepare('SELECT * FROM oacop_burns WHERE tx_id = ?').get(txId) as BurnRow | undefined;
    return row && toBurn(row);
  }

  async useBurn(txId: string, threadId: string): Promise<boolean> {
    // One statement: unused, or already paying for this very thread (a redelivery).
    const changed = this.#db
      .prepare('UPDATE oacop_burns SET used_for = ? WHERE tx_id = ? AND (used_for IS NULL OR used_for = ?)')
      .run(threadId, txId, threadId).changes;
    return changed === 1;
  }

  async book(booking: CalendarBooking, decide: BookingDecision): Promise<Result<void>> {
    return this.#book.immediate(booking, decide);
  }

  async unbook(owner: string, threadId: string): Promise<boolean> {
    return (
      this.#db.prepare('DELETE FROM oacop_bookings WHERE owner = ? AND thread_id = ?').run(owner, threadId).changes ===
      1
    );
  }

  async listBookings(owner: string, from: number, to: number): Promise<CalendarBooking[]> {
    const rows = this.#db
      .prepare(
        'SELECT * FROM oacop_bookings WHERE owner = ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms, thread_id',
      )
      .all(owner, to, from) as BookingRow[];
    return rows.map(toBooking);
  }

  async putAgentState(agent: string, key: string, state: unknown, at: number): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO oacop_agent_state (agent, key, state, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent, key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      )
      .run(agent, key, JSON.stringify(state), at);
  }

  async getAgentState(agent: string, key: string): Promise<unknown> {
    const row = this.#db.prepare('SELECT state FROM oacop_agent_state WHERE agent = ? AND key = ?').get(agent, key) as
      { state: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.state) as unknown);
  }
}
