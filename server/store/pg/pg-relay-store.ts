// The relay's storage on PostgreSQL (relay-store.ts). Every append and registration first takes
// the relay_seq counter row FOR UPDATE and keeps it to COMMIT: appends from every instance are
// decided one after another (the id check, the thread read, the pure decision, both writes) and
// seqs commit in increasing order, so a long-poll resuming after seq n never passes over an
// envelope that commits late. Appends arriving while one transaction runs share the next one
// (pg-group-commit.ts); a failure stays its own. The transaction NOTIFYs the highest seq it
// stored: other instances' long-polls wake at COMMIT (pg-head-listener.ts).
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
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
import type { PgChannelListener } from './pg-channel-listener';
import { headPayload, pgHeadListener, RELAY_HEAD_CHANNEL } from './pg-head-listener';
import { GroupCommit, NothingWritten, type CommitListener } from './pg-group-commit';
import { inTransaction } from './pg-pool';
import {
  partiesOf,
  toDirectory,
  toEnvelope,
  toThread,
  type DirectoryRow,
  type EnvelopeRow,
  type ThreadRow,
} from '../rows/relay-rows';

type Existing = { outcome: 'duplicate'; envelope: StoredRelayEnvelope } | { outcome: 'id_conflict' };

export class PgRelayStore implements RelayStore {
  readonly #pool: Pool;
  /** Names this store in its NOTIFY payloads, so its own listener skips what its feed published. */
  readonly #instance = randomUUID();
  readonly #listener: PgChannelListener<number>;
  readonly #appends: GroupCommit<AppendOutcome>;

  constructor(pool: Pool, url: string, onCommitted?: CommitListener) {
    this.#pool = pool;
    this.#listener = pgHeadListener(url, this.#instance, () => this.headSeq());
    this.#appends = new GroupCommit<AppendOutcome>(pool, {
      ...(onCommitted ? { onCommitted } : {}),
      lock: LOCK_SEQ,
      beforeCommit: async (client, outcomes) => {
        const head = Math.max(0, ...outcomes.map((o) => (o.outcome === 'stored' ? o.envelope.seq : 0)));
        if (head > 0) await this.#notify(client, head);
      },
    });
  }

  async findDigest(id: string): Promise<string | undefined> {
    return (await this.#pool.query<{ digest: string }>('SELECT digest FROM relay_envelopes WHERE id = $1', [id]))
      .rows[0]?.digest;
  }

  async appendEvent(envelope: NewRelayEnvelope, decide: ThreadDecision): Promise<AppendOutcome> {
    // Replayable: the decision is pure (ThreadDecision), so running it again after a rollback is invisible.
    return this.#appends.submit((client) => this.#appendRows(client, envelope, decide), { replayable: true });
  }

  async #notify(client: PoolClient, head: number): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [RELAY_HEAD_CHANNEL, headPayload(this.#instance, head)]);
  }

  /** An already stored id, as the outcome the caller reports; undefined when the id is new. */
  async #existing(client: PoolClient, envelope: NewRelayEnvelope): Promise<Existing | undefined> {
    const row = (await client.query<EnvelopeRow>('SELECT * FROM relay_envelopes WHERE id = $1', [envelope.id])).rows[0];
    if (!row) return undefined;
    if (row.digest !== envelope.digest) return { outcome: 'id_conflict' };
    return { outcome: 'duplicate', envelope: toEnvelope(row) };
  }

  async #appendRows(client: PoolClient, envelope: NewRelayEnvelope, decide: ThreadDecision): Promise<AppendOutcome> {
    const existing = await this.#existing(client, envelope);
    if (existing) return existing;
    // FOR UPDATE: a sweeper's compare-and-set on this thread waits, then finds the version moved.
    const row = (
      await client.query<ThreadRow>('SELECT * FROM relay_threads WHERE thread_id = $1 FOR UPDATE', [envelope.threadId])
    ).rows[0];
    const current = row && toThread(row);
    let decided: ReturnType<ThreadDecision>;
    try {
      decided = decide(current);
    } catch (error) {
      throw new NothingWritten(error); // a throwing decision fails alone; nothing was written yet
    }
    if (!decided.ok) return { outcome: 'refused', error: decided.error };
    const stored = await insertEnvelope(client, envelope);
    // null: stored without a thread row (OACoP carriers, decisions-oacop.md §A1).
    if (decided.value === null) return { outcome: 'stored', envelope: stored };
    const thread = await writeThread(client, envelope.threadId, current, decided.value, envelope.receivedAt);
    return { outcome: 'stored', envelope: stored, thread };
  }

  async listEvents(query: RelayEventQuery): Promise<RelayEventPage> {
    const params: unknown[] = [];
    const where = ["kind = 'event'"];
    const add = (clause: string, value: string | number | undefined) => {
      if (value !== undefined) where.push(`${clause} $${params.push(value)}`);
    };
    add('seq >', query.afterSeq);
    add('ts >', query.afterTs);
    add('expires_at >=', query.liveAt);
    add('recipient =', query.recipient);
    add('sender =', query.sender);
    add('type =', query.type);
    add('thread_id =', query.threadId);
    // One statement, so the page and the head come from one snapshot: every event up to the
    // head that matches is in the page (or after it, when hasMore).
    const { rows } = await this.#pool.query<EnvelopeRow & { head: number }>(
      `SELECT h.head, p.* FROM (SELECT coalesce(max(seq), 0) AS head FROM relay_envelopes) h
       LEFT JOIN LATERAL (SELECT * FROM relay_envelopes WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $${params.push(query.limit + 1)}) p ON true
       ORDER BY p.seq`,
      params,
    );
    const headSeq = rows[0]?.head ?? 0;
    const found = rows.filter((r) => r.seq !== null);
    return { events: found.slice(0, query.limit).map(toEnvelope), hasMore: found.length > query.limit, headSeq };
  }

  async threadEvents(threadId: string, limit: number): Promise<StoredRelayEnvelope[]> {
    const { rows } = await this.#pool.query<EnvelopeRow>(
      `SELECT * FROM relay_envelopes WHERE kind = 'event' AND thread_id = $1 ORDER BY seq LIMIT $2`,
      [threadId, limit],
    );
    return rows.map(toEnvelope);
  }

  async headSeq(): Promise<number> {
    return (await this.#pool.query<{ head: number }>('SELECT coalesce(max(seq), 0) AS head FROM relay_envelopes'))
      .rows[0]!.head;
  }

  /** Seqs other instances stored, as they commit (LISTEN/NOTIFY); returns how to stop. */
  watchHead(listener: (headSeq: number) => void): () => void {
    return this.#listener.subscribe(listener);
  }

  async getThread(threadId: string): Promise<ThreadRecord | undefined> {
    const row = (await this.#pool.query<ThreadRow>('SELECT * FROM relay_threads WHERE thread_id = $1', [threadId]))
      .rows[0];
    return row && toThread(row);
  }

  async listThreads(filter: {
    readonly party?: string;
    readonly status?: string;
    readonly limit: number;
  }): Promise<ThreadRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.party !== undefined)
      where.push(`parties LIKE $${params.push(`% ${filter.party.replace(/[\\%_]/g, (c) => `\\${c}`)} %`)} ESCAPE '\\'`);
    if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
    const { rows } = await this.#pool.query<ThreadRow>(
      `SELECT * FROM relay_threads ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, thread_id LIMIT $${params.push(filter.limit)}`,
      params,
    );
    return rows.map(toThread);
  }

  async listDueThreads(now: number, limit: number): Promise<ThreadRecord[]> {
    const { rows } = await this.#pool.query<ThreadRow>(
      'SELECT * FROM relay_threads WHERE deadline_at IS NOT NULL AND deadline_at < $1 ORDER BY deadline_at LIMIT $2',
      [now, limit],
    );
    return rows.map(toThread);
  }

  async updateThread(threadId: string, expectedVersion: number, next: ThreadWrite, now: number): Promise<boolean> {
    const { state, deadlineAt } = next;
    const { rowCount } = await this.#pool.query(
      `UPDATE relay_threads SET status = $1, client = $2, parties = $3, state = $4, version = version + 1, updated_at = $5, deadline_at = $6
       WHERE thread_id = $7 AND version = $8`,
      [
        state.status,
        state.status === 'OPEN' ? null : state.client,
        partiesOf(state),
        JSON.stringify(state),
        now,
        deadlineAt,
        threadId,
        expectedVersion,
      ],
    );
    return rowCount === 1;
  }

  async register(envelope: NewRelayEnvelope, r: DirectoryRecord): Promise<RegisterOutcome> {
    return inTransaction(this.#pool, async (client): Promise<RegisterOutcome> => {
      await client.query(LOCK_SEQ);
      const existing = await this.#existing(client, envelope);
      if (existing) return existing.outcome;
      // Newer (registeredAt, envelopeId) wins, so a replayed older registration cannot roll back.
      const { rowCount } = await client.query(
        `INSERT INTO directory_agents (did, manifest, scope, authorized_agents, aor_agent_id, endpoint, registered_at, envelope_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (did) DO UPDATE SET manifest = excluded.manifest, scope = excluded.scope, authorized_agents = excluded.authorized_agents,
           aor_agent_id = excluded.aor_agent_id, endpoint = excluded.endpoint, registered_at = excluded.registered_at, envelope_id = excluded.envelope_id
         WHERE excluded.registered_at > directory_agents.registered_at
            OR (excluded.registered_at = directory_agents.registered_at AND excluded.envelope_id > directory_agents.envelope_id)`,
        [
          r.did,
          JSON.stringify(r.manifest),
          r.scope,
          JSON.stringify(r.authorizedAgents),
          r.aorAgentId,
          r.endpoint,
          r.registeredAt,
          r.envelopeId,
        ],
      );
      if (rowCount === 0) return 'stale'; // nothing written: a refusal stores nothing
      const stored = await insertEnvelope(client, envelope);
      await this.#notify(client, stored.seq);
      return 'stored';
    });
  }

  async getRegistration(did: string): Promise<DirectoryRecord | undefined> {
    const row = (await this.#pool.query<DirectoryRow>('SELECT * FROM directory_agents WHERE did = $1', [did])).rows[0];
    return row && toDirectory(row);
  }

  async listRegistrations(): Promise<DirectoryRecord[]> {
    return (await this.#pool.query<DirectoryRow>('SELECT * FROM directory_agents ORDER BY did')).rows.map(toDirectory);
  }

  async lastEventAt(dids: readonly string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    if (dids.length === 0) return result;
    const { rows } = await this.#pool.query<{ sender: string; received_at: number }>(
      `SELECT DISTINCT ON (sender) sender, received_at FROM relay_envelopes WHERE kind = 'event' AND sender = ANY($1::text[]) ORDER BY sender, seq DESC`,
      [[...dids]],
    );
    for (const row of rows) result.set(row.sender, row.received_at);
    return result;
  }

  /** Stops the head listener; the pool is the Store's to end. */
  close(): void {
    this.#listener.close();
  }
}

/** The relay's serialisation point: held from here to COMMIT (see the header). */
const LOCK_SEQ = `SELECT value FROM store_counters WHERE name = 'relay_seq' FOR UPDATE`;

async function insertEnvelope(client: PoolClient, e: NewRelayEnvelope): Promise<StoredRelayEnvelope> {
  const { rows } = await client.query<{ seq: number }>(
    `WITH next AS (UPDATE store_counters SET value = value + 1 WHERE name = 'relay_seq' RETURNING value)
     INSERT INTO relay_envelopes (seq, id, kind, digest, type, sender, recipient, thread_id, ts, received_at, expires_at, json)
     VALUES ((SELECT value FROM next), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING seq`,
    [e.id, e.kind, e.digest, e.type, e.sender, e.recipient, e.threadId, e.ts, e.receivedAt, e.expiresAt, e.json],
  );
  return { ...e, seq: rows[0]!.seq };
}

async function writeThread(
  client: PoolClient,
  threadId: string,
  current: ThreadRecord | undefined,
  next: ThreadWrite,
  now: number,
): Promise<ThreadRecord> {
  const { state, deadlineAt } = next;
  const threadClient = state.status === 'OPEN' ? null : state.client;
  const openedAt = current?.openedAt ?? now;
  const { rows } = await client.query<{ version: number }>(
    `INSERT INTO relay_threads (thread_id, status, client, parties, state, version, opened_at, updated_at, deadline_at)
     VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8)
     ON CONFLICT (thread_id) DO UPDATE SET status = excluded.status, client = excluded.client, parties = excluded.parties,
       state = excluded.state, version = relay_threads.version + 1, updated_at = excluded.updated_at, deadline_at = excluded.deadline_at
     RETURNING version`,
    [threadId, state.status, threadClient, partiesOf(state), JSON.stringify(state), openedAt, now, deadlineAt],
  );
  return { threadId, state, version: rows[0]!.version, openedAt, updatedAt: now, deadlineAt };
}
