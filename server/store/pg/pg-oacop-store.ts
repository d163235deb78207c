// OACoP's store on PostgreSQL (oacop-store.ts). A burn is recorded and used by single conditional
// statements; a booking holds a per-owner advisory lock for its transaction, so two instances
// deciding on one calendar at once take turns and never book one slot twice.
import type { Pool } from 'pg';
import { ok, type Result } from '@shared/errors';
import type { BookingDecision, BurnOutcome, BurnRecordRow, CalendarBooking, OacopStore } from '../oacop-store';
import { inTransaction } from './pg-pool';
import { toBooking, toBurn, type BookingRow, type BurnRow } from '../rows/oacop-rows';
import { fromUnits, toUnits } from '@shared/oacop/ledger-amount';

/** Rolls a burn's transaction back when the balance does not cover it. */
class Insufficient extends Error {}

/** Rolls a booking transaction back when the decision refuses; carries the refusal out. */
class Refused extends Error {
  constructor(readonly result: Result<void>) {
    super('booking refused');
  }
}

export class PgOacopStore implements OacopStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async recordBurn(burn: Omit<BurnRecordRow, 'usedFor'>): Promise<BurnOutcome> {
    try {
      return await inTransaction(this.#pool, async (client) => {
        const inserted = await client.query(
          'INSERT INTO oacop_burns (tx_id, burned_by, amount, burned_at, used_for) VALUES ($1, $2, $3, $4, NULL) ON CONFLICT (tx_id) DO NOTHING',
          [burn.txId, burn.burnedBy, burn.amount, burn.burnedAt],
        );
        if (inserted.rowCount !== 1) {
          const known = (await client.query<BurnRow>('SELECT * FROM oacop_burns WHERE tx_id = $1', [burn.txId]))
            .rows[0]!;
          return known.burned_by === burn.burnedBy && known.amount === burn.amount ? 'duplicate' : 'conflict';
        }
        // One conditional statement: the row lock makes concurrent burns of one DID take turns.
        const debited = await client.query(
          'UPDATE oacop_balances SET units = units - $2::numeric, updated_at = $3 WHERE did = $1 AND units >= $2::numeric',
          [burn.burnedBy, toUnits(burn.amount).toString(), burn.burnedAt],
        );
        if (debited.rowCount !== 1) throw new Insufficient();
        return 'stored' as const;
      });
    } catch (error) {
      if (error instanceof Insufficient) return 'insufficient';
      throw error;
    }
  }

  async credit(did: string, amount: string, at: number): Promise<string> {
    const { rows } = await this.#pool.query<{ units: string }>(
      `INSERT INTO oacop_balances (did, units, updated_at) VALUES ($1, $2::numeric, $3)
       ON CONFLICT (did) DO UPDATE SET units = oacop_balances.units + excluded.units, updated_at = excluded.updated_at
       RETURNING units::text AS units`,
      [did, toUnits(amount).toString(), at],
    );
    return fromUnits(BigInt(rows[0]!.units));
  }

  async balanceOf(did: string): Promise<string> {
    const { rows } = await this.#pool.query<{ units: string }>(
      'SELECT units::text AS units FROM oacop_balances WHERE did = $1',
      [did],
    );
    return fromUnits(rows[0] === undefined ? 0n : BigInt(rows[0].units));
  }

  async getBurn(txId: string): Promise<BurnRecordRow | undefined> {
    const row = (await this.#pool.query<BurnRow>('SELECT * FROM oacop_burns WHERE tx_id = $1', [txId])).rows[0];
    return row && toBurn(row);
  }

  async useBurn(txId: string, threadId: string): Promise<boolean> {
    // One statement: unused, or already paying for this very thread (a redelivery).
    const { rowCount } = await this.#pool.query(
      'UPDATE oacop_burns SET used_for = $1 WHERE tx_id = $2 AND (used_for IS NULL OR used_for = $1)',
      [threadId, txId],
    );
    return rowCount === 1;
  }

  async book(booking: CalendarBooking, decide: BookingDecision): Promise<Result<void>> {
    try {
      return await inTransaction(this.#pool, async (client) => {
        // hashtextextended: a 64-bit key per owner; a collision only makes two owners take turns.
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `oacop-calendar:${booking.owner}`,
        ]);
        const { rows } = await client.query<BookingRow>(
          'SELECT * FROM oacop_bookings WHERE owner = $1 AND thread_id <> $2 ORDER BY start_ms',
          [booking.owner, booking.threadId],
        );
        const decided = decide(rows.map(toBooking));
        if (!decided.ok) throw new Refused(decided);
        await client.query(
          `INSERT INTO oacop_bookings (owner, thread_id, start_ms, end_ms, revision, title, booked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (owner, thread_id) DO UPDATE SET start_ms = excluded.start_ms, end_ms = excluded.end_ms,
             revision = excluded.revision, title = excluded.title, booked_at = excluded.booked_at`,
          [
            booking.owner,
            booking.threadId,
            booking.start,
            booking.end,
            booking.revision,
            booking.title,
            booking.bookedAt,
          ],
        );
        return ok(undefined);
      });
    } catch (error) {
      if (error instanceof Refused) return error.result;
      throw error;
    }
  }

  async unbook(owner: string, threadId: string): Promise<boolean> {
    const { rowCount } = await this.#pool.query('DELETE FROM oacop_bookings WHERE owner = $1 AND thread_id = $2', [
      owner,
      threadId,
    ]);
    return rowCount === 1;
  }

  async listBookings(owner: string, from: number, to: number): Promise<CalendarBooking[]> {
    const { rows } = await this.#pool.query<BookingRow>(
      'SELECT * FROM oacop_bookings WHERE owner = $1 AND start_ms < $2 AND end_ms > $3 ORDER BY start_ms, thread_id',
      [owner, to, from],
    );
    return rows.map(toBooking);
  }

  async putAgentState(agent: string, key: string, state: unknown, at: number): Promise<void> {
    await this.#pool.query(
      `INSERT INTO oacop_agent_state (agent, key, state, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (agent, key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [agent, key, JSON.stringify(state), at],
    );
  }

  async getAgentState(agent: string, key: string): Promise<unknown> {
    const row = (
      await this.#pool.query<{ state: string }>('SELECT state FROM oacop_agent_state WHERE agent = $1 AND key = $2', [
        agent,
        key,
      ])
    ).rows[0];
    return row === undefined ? undefined : (JSON.parse(row.state) as unknown);
  }
}
