// The negotiation store on the SQLite file (negotiation-store.ts). A save is one IMMEDIATE
// transaction: the conditional UPDATE on the version, then (for an acceptance) the log append
// computed from the head read in that same transaction. The log table's triggers (migration 3)
// refuse any insert that does not follow the head, any delete, and any update outside the
// public view, whatever code runs against the file.
import type Database from 'better-sqlite3';
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
import { toEntry, toRecord, type LogRow, type NegotiationRow } from '../rows/negotiation-rows';

export class SqliteNegotiationStore implements NegotiationStore {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #save: Database.Transaction<(id: string, expectedVersion: number, next: NegotiationSave) => SaveOutcome>;
  readonly #updateView: Database.Transaction<
    (index: number, decide: (entry: LogEntry) => Result<LogEntry>) => Result<LogEntry>
  >;
  readonly #logFrom: Database.Transaction<(from: number) => LogEntry[]>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#save = db.transaction((id: string, expectedVersion: number, next: NegotiationSave) =>
      this.#saveRows(id, expectedVersion, next),
    );
    this.#updateView = db.transaction((index: number, decide: (entry: LogEntry) => Result<LogEntry>) =>
      this.#updateViewRow(index, decide),
    );
    this.#logFrom = db.transaction((from: number) =>
      (this.#sql('SELECT * FROM negotiation_log WHERE log_index >= ? ORDER BY log_index').all(from) as LogRow[]).map(
        toEntry,
      ),
    );
  }

  #sql(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      if (this.#statements.size >= 100) this.#statements.clear();
      statement = this.#db.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  async create(record: Omit<NegotiationRecord, 'version' | 'logIndex' | 'updatedAt'>): Promise<boolean> {
    const s = record.state;
    const info = this.#sql(
      `INSERT INTO negotiations (id, status, category, party_a, party_b, state, limits, version, deadline_at, log_index, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?) ON CONFLICT (id) DO NOTHING`,
    ).run(
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
      record.createdAt,
    );
    return info.changes === 1;
  }

  async get(id: string): Promise<NegotiationRecord | undefined> {
    const row = this.#sql('SELECT * FROM negotiations WHERE id = ?').get(id) as NegotiationRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(filter: NegotiationFilter): Promise<NegotiationRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status !== undefined) {
      where.push('status = ?');
      params.push(filter.status);
    }
    if (filter.category !== undefined) {
      where.push('category = ?');
      params.push(filter.category);
    }
    if (filter.party !== undefined) {
      where.push('(party_a = ? OR party_b = ?)');
      params.push(filter.party, filter.party);
    }
    const sql = `SELECT * FROM negotiations ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id DESC LIMIT ?`;
    return (this.#sql(sql).all(...params, filter.limit) as NegotiationRow[]).map(toRecord);
  }

  async save(id: string, expectedVersion: number, next: NegotiationSave): Promise<SaveOutcome> {
    return this.#save.immediate(id, expectedVersion, next);
  }

  #saveRows(id: string, expectedVersion: number, next: NegotiationSave): SaveOutcome {
    const current = this.#sql('SELECT version, log_index FROM negotiations WHERE id = ?').get(id) as
      { version: number; log_index: number | null } | undefined;
    if (!current || current.version !== expectedVersion) return { outcome: 'conflict' };
    let entry: LogEntry | undefined;
    let logIndex = current.log_index;
    if (next.appendLog) {
      const made = next.appendLog(this.#head());
      if (!made.ok) return { outcome: 'refused', error: made.error };
      entry = made.value;
      this.#sql(
        `INSERT INTO negotiation_log (log_index, prev_hash, timestamp, kind, integrity_hash, entry_hash, public, negotiation_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        entry.index,
        entry.prev_hash,
        entry.timestamp,
        entry.kind,
        entry.integrity_hash,
        entry.entry_hash,
        JSON.stringify(entry.public),
        id,
      );
      logIndex = entry.index;
    }
    if (next.updateLogView) {
      const updated = this.#updateViewRow(next.updateLogView.index, next.updateLogView.decide);
      if (!updated.ok) return { outcome: 'refused', error: updated.error };
    }
    const s = next.state;
    const info = this.#sql(
      `UPDATE negotiations SET status = ?, state = ?, version = ?, deadline_at = ?, log_index = ?, updated_at = ?
       WHERE id = ? AND version = ?`,
    ).run(s.status, JSON.stringify(s), s.history.length, next.deadlineAt, logIndex, next.now, id, expectedVersion);
    if (info.changes !== 1) throw new Error('negotiation save lost its row inside the transaction');
    const row = this.#sql('SELECT * FROM negotiations WHERE id = ?').get(id) as NegotiationRow;
    return entry ? { outcome: 'stored', record: toRecord(row), entry } : { outcome: 'stored', record: toRecord(row) };
  }

  async listDue(now: number, limit: number): Promise<NegotiationRecord[]> {
    return (
      this.#sql('SELECT * FROM negotiations WHERE deadline_at < ? ORDER BY deadline_at LIMIT ?').all(
        now,
        limit,
      ) as NegotiationRow[]
    ).map(toRecord);
  }

  #head(): LogHead | null {
    const row = this.#sql(
      'SELECT log_index, entry_hash, timestamp FROM negotiation_log ORDER BY log_index DESC LIMIT 1',
    ).get() as Pick<LogRow, 'log_index' | 'entry_hash' | 'timestamp'> | undefined;
    return row
      ? { index: row.log_index, entry_hash: row.entry_hash as LogHead['entry_hash'], timestamp: row.timestamp }
      : null;
  }

  async logHead(): Promise<LogHead | null> {
    return this.#head();
  }

  async logPage(from: number, limit: number): Promise<LogPage> {
    const read = this.#db.transaction(() => {
      const entries = (
        this.#sql('SELECT * FROM negotiation_log WHERE log_index >= ? ORDER BY log_index LIMIT ?').all(
          from,
          limit,
        ) as LogRow[]
      ).map(toEntry);
      const head = this.#head();
      return { entries, size: head === null ? 0 : head.index + 1, head };
    });
    return read();
  }

  async logFrom(from: number): Promise<LogEntry[]> {
    return this.#logFrom(from);
  }

  async logEntry(index: number): Promise<LogEntry | undefined> {
    const row = this.#sql('SELECT * FROM negotiation_log WHERE log_index = ?').get(index) as LogRow | undefined;
    return row ? toEntry(row) : undefined;
  }

  async updateLogView(index: number, decide: (entry: LogEntry) => Result<LogEntry>): Promise<Result<LogEntry>> {
    return this.#updateView.immediate(index, decide);
  }

  #updateViewRow(index: number, decide: (entry: LogEntry) => Result<LogEntry>): Result<LogEntry> {
    const row = this.#sql('SELECT * FROM negotiation_log WHERE log_index = ?').get(index) as LogRow | undefined;
    if (!row) return fail('LOG_INDEX_OUT_OF_RANGE', `The log has no entry ${index}.`);
    const next = decide(toEntry(row));
    if (!next.ok) return next;
    this.#sql('UPDATE negotiation_log SET public = ? WHERE log_index = ?').run(
      JSON.stringify(next.value.public),
      index,
    );
    return ok(next.value);
  }
}
