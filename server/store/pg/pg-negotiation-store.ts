// The negotiation store on PostgreSQL (negotiation-store.ts). A save is one transaction holding
// the negotiation's row (FOR UPDATE) and, for an acceptance, the log's advisory lock, so two
// instances never both save one version or both append at one index. The log table's triggers
// (pg-migrations.ts, migration 2) refuse an insert that does not follow the head, any delete or
// truncate, and any update outside the public view, whatever code runs against the database.
import type { Pool, PoolClient } from 'pg';
import { fail, ok, type Result } from '@shared/errors';
import type { LogEntry, LogHead } from '@shared/negotiation/transparency-log';
import type {
  LogPage,
  NegotiationFilter,
  NegotiationRecord,
  NegotiationSave,
  NegotiationStore,
  SaveOutcome,
} from '../negotiation-store';
import { inTransaction } from './pg-pool';
import { toEntry, toRecord, type LogRow, type NegotiationRow } from '../rows/negotiation-rows';

/** Serializes appends to the log across every instance sharing the database ("SWLOG"). */
const LOG_LOCK_KEY = 0x53_574c_4f47;

/** A pool or one connection inside a transaction. */
type Db = Pick<PoolClient, 'query'>;

async function readHead(db: Db): Promise<LogHead | null> {
  const row = (
    await db.query<Pick<LogRow, 'log_index' | 'entry_hash' | 'timestamp'>>(
      'SELECT log_index, entry_hash, timestamp FROM negotiation_log ORDER BY log_index DESC LIMIT 1',
    )
  ).rows[0];
  return row
    ? { index: row.log_index, entry_hash: row.entry_hash as LogHead['entry_hash'], timestamp: row.timestamp }
    : null;
}

/** Runs `decide` on the entry as stored (locked) and replaces only its public view. */
async function updateViewRow(
  client: PoolClient,
  index: number,
  decide: (entry: LogEntry) => Result<LogEntry>,
): Promise<Result<LogEntry>> {
  const row = (await client.query<LogRow>('SELECT * FROM negotiation_log WHERE log_index = $1 FOR UPDATE', [index]))
    .rows[0];
  if (!row) return fail('LOG_INDEX_OUT_OF_RANGE', `The log has no entry ${index}.`);
  const next = decide(toEntry(row));
  if (!next.ok) return next;
  await client.query('UPDATE negotiation_log SET public = $1 WHERE log_index = $2', [
    JSON.stringify(next.value.public),
    index,
  ]);
  return ok(next.value);
}

/** A refusal decided inside the transaction: rolls it back, and is reported as the outcome. */
class Refusal extends Error {
  constructor(readonly outcome: SaveOutcome) {
    super('refused inside the save transaction');
  }
}

export class PgNegotiationStore implements NegotiationStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async create(record: Omit<NegotiationRecord, 'version' | 'logIndex' | 'updatedAt'>): Promise<boolean> {
    const s = record.state;
    const { rowCount } = await this.#pool.query(
      `INSERT INTO negotiations (id, status, category, party_a, party_b, state, limits, version, deadline_at, log_index, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10, $10) ON CONFLICT (id) DO NOTHING`,
      [
        record.id,
        s.status,
        s.category,
        s.parties[0],
        s.parties[1],
        JSON.stringify(s),
        JSON.stringify(record.limits),
        s.history.length,
        record.deadlineAt,
        record.createdAt,
      ],
    );
    return rowCount === 1;
  }

  async get(id: string): Promise<NegotiationRecord | undefined> {
    const row = (await this.#pool.query<NegotiationRow>('SELECT * FROM negotiations WHERE id = $1', [id])).rows[0];
    return row ? toRecord(row) : undefined;
  }

  async list(filter: NegotiationFilter): Promise<NegotiationRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
    if (filter.category !== undefined) where.push(`category = $${params.push(filter.category)}`);
    if (filter.party !== undefined) {
      const p = params.push(filter.party);
      where.push(`(party_a = $${p} OR party_b = $${p})`);
    }
    const sql = `SELECT * FROM negotiations ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id DESC LIMIT $${params.push(filter.limit)}`;
    return (await this.#pool.query<NegotiationRow>(sql, params)).rows.map(toRecord);
  }

  async save(id: string, expectedVersion: number, next: NegotiationSave): Promise<SaveOutcome> {
    try {
      return await inTransaction(this.#pool, (client) => this.#saveRows(client, id, expectedVersion, next));
    } catch (error) {
      if (error instanceof Refusal) return error.outcome;
      throw error;
    }
  }

  async #saveRows(
    client: PoolClient,
    id: string,
    expectedVersion: number,
    next: NegotiationSave,
  ): Promise<SaveOutcome> {
    // The row lock makes a concurrent save of the same negotiation wait, then see the new version.
    const current = (
      await client.query<{ version: number; log_index: number | null }>(
        'SELECT version, log_index FROM negotiations WHERE id = $1 FOR UPDATE',
        [id],
      )
    ).rows[0];
    if (!current || current.version !== expectedVersion) return { outcome: 'conflict' };
    let entry: LogEntry | undefined;
    let logIndex = current.log_index;
    if (next.appendLog) {
      // One writer at the head at a time, on every instance; held to COMMIT.
      await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY]);
      const made = next.appendLog(await readHead(client));
      if (!made.ok) return { outcome: 'refused', error: made.error };
      entry = made.value;
      await client.query(
        `INSERT INTO negotiation_log (log_index, prev_hash, timestamp, kind, integrity_hash, entry_hash, public, negotiation_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          entry.index,
          entry.prev_hash,
          entry.timestamp,
          entry.kind,
          entry.integrity_hash,
          entry.entry_hash,
          JSON.stringify(entry.public),
          id,
        ],
      );
      logIndex = entry.index;
    }
    if (next.updateLogView) {
      const updated = await updateViewRow(client, next.updateLogView.index, next.updateLogView.decide);
      // The log entry may already be written: a refusal must undo it, so it rolls back.
      if (!updated.ok) throw new Refusal({ outcome: 'refused', error: updated.error });
    }
    const s = next.state;
    const { rows } = await client.query<NegotiationRow>(
      `UPDATE negotiations SET status = $1, state = $2, version = $3, deadline_at = $4, log_index = $5, updated_at = $6
       WHERE id = $7 AND version = $8 RETURNING *`,
      [s.status, JSON.stringify(s), s.history.length, next.deadlineAt, logIndex, next.now, id, expectedVersion],
    );
    const row = rows[0];
    if (!row) throw new Error('negotiation save lost its row inside the transaction');
    return entry ? { outcome: 'stored', record: toRecord(row), entry } : { outcome: 'stored', record: toRecord(row) };
  }

  async listDue(now: number, limit: number): Promise<NegotiationRecord[]> {
    const { rows } = await this.#pool.query<NegotiationRow>(
      'SELECT * FROM negotiations WHERE deadline_at < $1 ORDER BY deadline_at LIMIT $2',
      [now, limit],
    );
    return rows.map(toRecord);
  }

  logHead(): Promise<LogHead | null> {
    return readHead(this.#pool);
  }

  async logPage(from: number, limit: number): Promise<LogPage> {
    // One snapshot for the page and the head (REPEATABLE READ, read only).
    return this.#snapshot(async (client) => {
      const entries = (
        await client.query<LogRow>('SELECT * FROM negotiation_log WHERE log_index >= $1 ORDER BY log_index LIMIT $2', [
          from,
          limit,
        ])
      ).rows.map(toEntry);
      const head = await readHead(client);
      return { entries, size: head === null ? 0 : head.index + 1, head };
    });
  }

  async logFrom(from: number): Promise<LogEntry[]> {
    const { rows } = await this.#pool.query<LogRow>(
      'SELECT * FROM negotiation_log WHERE log_index >= $1 ORDER BY log_index',
      [from],
    );
    return rows.map(toEntry);
  }

  async logEntry(index: number): Promise<LogEntry | undefined> {
    const row = (await this.#pool.query<LogRow>('SELECT * FROM negotiation_log WHERE log_index = $1', [index])).rows[0];
    return row ? toEntry(row) : undefined;
  }

  async updateLogView(index: number, decide: (entry: LogEntry) => Result<LogEntry>): Promise<Result<LogEntry>> {
    return inTransaction(this.#pool, (client) => updateViewRow(client, index, decide));
  }

  async #snapshot<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
