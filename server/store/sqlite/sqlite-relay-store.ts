// The relay's storage on the SQLite file (relay-store.ts). Kept apart from sqlite-store.ts so
// the relay and the rooms evolve without touching each other. Each decision runs inside one
// IMMEDIATE transaction: the id check, the thread read, the pure decision and both writes.
import type Database from 'better-sqlite3';
import type { SqliteGroupCommit } from './sqlite-group-commit';
import type {
  AppendOutcome,
  DirectoryRecord,
  NewRelayEnvelope,
  RegisterOutcome,
  RelayEventPage,
  RelayEventQuery,
  RelayStore,
  StoredRelayEnvelope,
  ThreadDecision,
  ThreadRecord,
  ThreadWrite,
} from '../relay-store';
import {
  partiesOf,
  toDirectory,
  toEnvelope,
  toThread,
  type DirectoryRow,
  type EnvelopeRow,
  type ThreadRow,
} from '../rows/relay-rows';
import { statementCache } from './statement-cache';

export class SqliteRelayStore implements RelayStore {
  readonly #sql: (text: string) => Database.Statement;
  readonly #commits: SqliteGroupCommit;
  readonly #register: Database.Transaction<(envelope: NewRelayEnvelope, record: DirectoryRecord) => RegisterOutcome>;
  readonly #page: Database.Transaction<
    (sql: string, params: readonly (string | number)[], limit: number) => RelayEventPage
  >;

  constructor(db: Database.Database, commits: SqliteGroupCommit) {
    this.#sql = statementCache(db, 200);
    // Appends share the store's group commit: one commit per event-loop turn is what makes ingest
    // cheap beside the signature check (docs/benchmarks.md). Refusals are decided before anything
    // is written, and each append in a group sees the rows an earlier one wrote (its thread, its id).
    this.#commits = commits;
    this.#register = db.transaction((envelope: NewRelayEnvelope, record: DirectoryRecord) =>
      this.#registerRows(envelope, record),
    );
    // One read transaction: the page and the head are the same snapshot.
    this.#page = db.transaction((sql: string, params: readonly (string | number)[], limit: number): RelayEventPage => {
      const rows = this.#sql(sql).all(...params, limit + 1) as EnvelopeRow[];
      const hasMore = rows.length > limit;
      return { events: rows.slice(0, limit).map(toEnvelope), hasMore, headSeq: this.#headSeq() };
    });
  }

  async findDigest(id: string): Promise<string | undefined> {
    const row = this.#sql('SELECT digest FROM relay_envelopes WHERE id = ?').get(id) as { digest: string } | undefined;
    return row?.digest;
  }

  async appendEvent(envelope: NewRelayEnvelope, decide: ThreadDecision): Promise<AppendOutcome> {
    return this.#commits.submit(() => this.#appendRows(envelope, decide));
  }

  /** An already stored id, as the outcome the caller reports; undefined when the id is new. */
  #existing(
    envelope: NewRelayEnvelope,
  ): { outcome: 'duplicate'; envelope: StoredRelayEnvelope } | { outcome: 'id_conflict' } | undefined {
    const known = this.#sql('SELECT digest FROM relay_envelopes WHERE id = ?').get(envelope.id) as
      { digest: string } | undefined;
    if (!known) return undefined;
    if (known.digest !== envelope.digest) return { outcome: 'id_conflict' };
    return {
      outcome: 'duplicate',
      envelope: toEnvelope(this.#sql('SELECT * FROM relay_envelopes WHERE id = ?').get(envelope.id) as EnvelopeRow),
    };
  }

  #insertEnvelope(e: NewRelayEnvelope): StoredRelayEnvelope {
    // seq is the rowid: read back without RETURNING, as room history's cursor is (sqlite-room-store.ts).
    const { lastInsertRowid } = this.#sql(
      `INSERT INTO relay_envelopes (id, kind, digest, type, sender, recipient, thread_id, ts, received_at, expires_at, json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(e.id, e.kind, e.digest, e.type, e.sender, e.recipient, e.threadId, e.ts, e.receivedAt, e.expiresAt, e.json);
    return { ...e, seq: Number(lastInsertRowid) };
  }

  #appendRows(envelope: NewRelayEnvelope, decide: ThreadDecision): AppendOutcome {
    const existing = this.#existing(envelope);
    if (existing) return existing;
    const row = this.#sql('SELECT * FROM relay_threads WHERE thread_id = ?').get(envelope.threadId) as
      ThreadRow | undefined;
    const current = row && toThread(row);
    const decided = decide(current);
    if (!decided.ok) return { outcome: 'refused', error: decided.error };
    const stored = this.#insertEnvelope(envelope);
    if (decided.value === null) return { outcome: 'stored', envelope: stored };
    const thread = this.#writeThread(envelope.threadId, current, decided.value, envelope.receivedAt);
    return { outcome: 'stored', envelope: stored, thread };
  }

  #writeThread(threadId: string, current: ThreadRecord | undefined, next: ThreadWrite, now: number): ThreadRecord {
    const { state, deadlineAt } = next;
    const client = state.status === 'OPEN' ? null : state.client;
    const openedAt = current?.openedAt ?? now;
    // The row is read inside this transaction, so its version is the one being replaced.
    const { version } = this.#sql(
      `INSERT INTO relay_threads (thread_id, status, client, parties, state, version, opened_at, updated_at, deadline_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
       ON CONFLICT (thread_id) DO UPDATE SET status = excluded.status, client = excluded.client, parties = excluded.parties,
         state = excluded.state, version = relay_threads.version + 1, updated_at = excluded.updated_at, deadline_at = excluded.deadline_at
       RETURNING version`,
    ).get(threadId, state.status, client, partiesOf(state), JSON.stringify(state), openedAt, now, deadlineAt) as {
      version: number;
    };
    return { threadId, state, version, openedAt, updatedAt: now, deadlineAt };
  }

  async listEvents(query: RelayEventQuery): Promise<RelayEventPage> {
    const where = ["kind = 'event'"];
    const params: (string | number)[] = [];
    const add = (clause: string, value: string | number | undefined) => {
      if (value === undefined) return;
      where.push(clause);
      params.push(value);
    };
    add('seq > ?', query.afterSeq);
    add('ts > ?', query.afterTs);
    add('expires_at >= ?', query.liveAt);
    add('recipient = ?', query.recipient);
    add('sender = ?', query.sender);
    add('type = ?', query.type);
    add('thread_id = ?', query.threadId);
    return this.#page(
      `SELECT * FROM relay_envelopes WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`,
      params,
      query.limit,
    );
  }

  async threadEvents(threadId: string, limit: number): Promise<StoredRelayEnvelope[]> {
    const rows = this.#sql(
      `SELECT * FROM relay_envelopes WHERE kind = 'event' AND thread_id = ? ORDER BY seq LIMIT ?`,
    ).all(threadId, limit) as EnvelopeRow[];
    return rows.map(toEnvelope);
  }

  #headSeq(): number {
    return (this.#sql('SELECT coalesce(max(seq), 0) AS head FROM relay_envelopes').get() as { head: number }).head;
  }

  async headSeq(): Promise<number> {
    return this.#headSeq();
  }

  async getThread(threadId: string): Promise<ThreadRecord | undefined> {
    const row = this.#sql('SELECT * FROM relay_threads WHERE thread_id = ?').get(threadId) as ThreadRow | undefined;
    return row && toThread(row);
  }

  async listThreads(filter: {
    readonly party?: string;
    readonly status?: string;
    readonly limit: number;
  }): Promise<ThreadRecord[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.party !== undefined) {
      where.push("parties LIKE ? ESCAPE '\\'");
      params.push(`% ${filter.party.replace(/[\\%_]/g, (c) => `\\${c}`)} %`);
    }
    if (filter.status !== undefined) {
      where.push('status = ?');
      params.push(filter.status);
    }
    const rows = this.#sql(
      `SELECT * FROM relay_threads ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, thread_id LIMIT ?`,
    ).all(...params, filter.limit) as ThreadRow[];
    return rows.map(toThread);
  }

  async listDueThreads(now: number, limit: number): Promise<ThreadRecord[]> {
    const rows = this.#sql(
      'SELECT * FROM relay_threads WHERE deadline_at IS NOT NULL AND deadline_at < ? ORDER BY deadline_at LIMIT ?',
    ).all(now, limit) as ThreadRow[];
    return rows.map(toThread);
  }

  async updateThread(threadId: string, expectedVersion: number, next: ThreadWrite, now: number): Promise<boolean> {
    const { state, deadlineAt } = next;
    const { changes } = this.#sql(
      `UPDATE relay_threads SET status = ?, client = ?, parties = ?, state = ?, version = version + 1, updated_at = ?, deadline_at = ?
       WHERE thread_id = ? AND version = ?`,
    ).run(
      state.status,
      state.status === 'OPEN' ? null : state.client,
      partiesOf(state),
      JSON.stringify(state),
      now,
      deadlineAt,
      threadId,
      expectedVersion,
    );
    return changes === 1;
  }

  async register(envelope: NewRelayEnvelope, record: DirectoryRecord): Promise<RegisterOutcome> {
    return this.#register.immediate(envelope, record);
  }

  #registerRows(envelope: NewRelayEnvelope, r: DirectoryRecord): RegisterOutcome {
    const existing = this.#existing(envelope);
    if (existing) return existing.outcome;
    // Newer (registeredAt, envelopeId) wins, so a replayed older registration cannot roll back.
    const { changes } = this.#sql(
      `INSERT INTO directory_agents (did, manifest, scope, authorized_agents, aor_agent_id, endpoint, registered_at, envelope_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (did) DO UPDATE SET manifest = excluded.manifest, scope = excluded.scope, authorized_agents = excluded.authorized_agents,
         aor_agent_id = excluded.aor_agent_id, endpoint = excluded.endpoint, registered_at = excluded.registered_at, envelope_id = excluded.envelope_id
       WHERE excluded.registered_at > directory_agents.registered_at
          OR (excluded.registered_at = directory_agents.registered_at AND excluded.envelope_id > directory_agents.envelope_id)`,
    ).run(
      r.did,
      JSON.stringify(r.manifest),
      r.scope,
      JSON.stringify(r.authorizedAgents),
      r.aorAgentId,
      r.endpoint,
      r.registeredAt,
      r.envelopeId,
    );
    if (changes === 0) return 'stale'; // nothing written: a refusal stores nothing
    this.#insertEnvelope(envelope);
    return 'stored';
  }

  async getRegistration(did: string): Promise<DirectoryRecord | undefined> {
    const row = this.#sql('SELECT * FROM directory_agents WHERE did = ?').get(did) as DirectoryRow | undefined;
    return row && toDirectory(row);
  }

  async listRegistrations(): Promise<DirectoryRecord[]> {
    return (this.#sql('SELECT * FROM directory_agents ORDER BY did').all() as DirectoryRow[]).map(toDirectory);
  }

  async lastEventAt(dids: readonly string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    const statement = this.#sql(
      `SELECT received_at FROM relay_envelopes WHERE kind = 'event' AND sender = ? ORDER BY seq DESC LIMIT 1`,
    );
    for (const did of dids) {
      const row = statement.get(did) as { received_at: number } | undefined;
      if (row) result.set(did, row.received_at);
    }
    return result;
  }
}
