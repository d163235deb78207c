// Rooms, their history, mic grants and review items on PostgreSQL. Every verdict is one
// conditional statement whose affected row decides (server/store/README.md); under READ
// COMMITTED a competing UPDATE waits for the row and re-checks its WHERE on the committed
// version, so fifty concurrent spends on one grant still stop at its budget. Whatever appends to
// history (a message, an approval) runs through one GroupCommit: cursor counter first, then the
// review item, grant and room rows; a transaction that does not append holds one row at most.
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { RejectReason } from '@shared/aor/reject-reasons';
import { grantPut, spendRefusal } from '@shared/aor/stored-grants';
import { wholeSeconds } from '@shared/aor/time';
import { CodedError } from '@shared/errors';
import {
  isStored,
  type AgentRejectCount,
  type ApprovalResult,
  type CandidateJudgement,
  type CandidateRecord,
  type GrantRecord,
  type MessagePage,
  type MessageQuery,
  type HistoryRetention,
  type ModerationMode,
  type NewReviewItem,
  type NewRoomMessage,
  type ReviewItem,
  type Room,
  type RoomActivity,
  type RoomStore,
  type RoomSummary,
  type SpendResult,
  type StoredRoomMessage,
} from '../store';
import {
  ACTIVITY_KEPT_MS,
  isReject,
  mayBeApproved,
  minuteOf,
  REJECTS_KEPT_MS,
  rejectFields,
} from '../rows/activity-rows';
import { GroupCommit, type CommitListener } from './pg-group-commit';
import { inTransaction } from './pg-pool';
import { pgRejectsByAgent, pgRoomActivity } from './pg-room-activity';
import {
  bufferOf,
  mergeSwept,
  RETENTION_BATCH,
  retentionCutoff,
  toGrant,
  toMessage,
  toReview,
  toRoom,
  type GrantRow,
  type MessageRow,
  type ReviewRow,
  type RoomRow,
} from '../rows/room-rows';

/** A pool or one connection inside a transaction. */
interface Db {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** Every transaction that appends to history takes the cursor counter first (pg-group-commit.ts). */
const LOCK_CURSOR = `SELECT value FROM store_counters WHERE name = 'room_message_cursor' FOR UPDATE`;

export class PgRoomStore implements RoomStore {
  readonly #pool: Pool;
  readonly #history: GroupCommit<unknown>;

  constructor(pool: Pool, onCommitted?: CommitListener) {
    this.#pool = pool;
    this.#history = new GroupCommit<unknown>(pool, { lock: LOCK_CURSOR, ...(onCommitted ? { onCommitted } : {}) });
  }

  // Rooms and their history.

  async ensureRoom(room: Omit<Room, 'createdAt'> & { readonly createdAt?: number }): Promise<Room> {
    await this.#pool.query(
      'INSERT INTO rooms (id, name, moderation, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
      [room.id, room.name, room.moderation, room.createdAt ?? Date.now()],
    );
    return toRoom((await this.#pool.query<RoomRow>('SELECT * FROM rooms WHERE id = $1', [room.id])).rows[0]!);
  }

  async getRoom(id: string): Promise<Room | undefined> {
    return roomRow(this.#pool, id);
  }

  async setModeration(roomId: string, mode: ModerationMode): Promise<void> {
    const { rowCount } = await this.#pool.query('UPDATE rooms SET moderation = $1 WHERE id = $2', [mode, roomId]);
    if (rowCount === 0) throw new CodedError('ROOM_NOT_FOUND', `Room ${roomId} does not exist.`, { roomId });
  }

  async setRetention(roomId: string, retention: HistoryRetention | null): Promise<void> {
    const { rowCount } = await this.#pool.query(
      'UPDATE rooms SET history_max_messages = $1, history_max_age_days = $2 WHERE id = $3',
      [retention?.maxMessages ?? null, retention?.maxAgeDays ?? null, roomId],
    );
    if (rowCount === 0) throw new CodedError('ROOM_NOT_FOUND', `Room ${roomId} does not exist.`, { roomId });
  }

  async applyRetention(now: number): Promise<{ roomId: string; deleted: number }[]> {
    const { rows } = await this.#pool.query<RoomRow>(
      'SELECT * FROM rooms WHERE history_max_messages IS NOT NULL OR history_max_age_days IS NOT NULL ORDER BY id',
    );
    const swept: { roomId: string; deleted: number }[] = [];
    for (const row of rows) {
      // Rows appended meanwhile have larger cursors, so the bound holds for the whole sweep.
      const below = await this.#retentionBound(row, now);
      if (below === undefined) continue;
      let deleted = 0;
      // One batch per statement (its own transaction), so appends wait for one batch at most.
      for (;;) {
        const {
          rows: [result],
        } = await this.#pool.query<{ deleted: number }>(
          `WITH gone AS (
             DELETE FROM room_messages WHERE cursor IN (SELECT cursor FROM room_messages WHERE room_id = $1 AND cursor < $2 ORDER BY cursor LIMIT $3)
             RETURNING 1
           )
           UPDATE rooms SET message_count = greatest(0, message_count - (SELECT count(*) FROM gone)) WHERE id = $1
           RETURNING (SELECT count(*) FROM gone)::int AS deleted`,
          [row.id, below, RETENTION_BATCH],
        );
        const batch = result?.deleted ?? 0;
        deleted += batch;
        if (batch < RETENTION_BATCH) break;
      }
      if (deleted > 0) swept.push({ roomId: row.id, deleted });
    }
    return mergeSwept(swept, await this.#sweepRejects(now));
  }

  /** As sqlite-room-store.ts sweeps them: old rejects in batches, then old activity buckets (§74). */
  async #sweepRejects(now: number): Promise<Map<string, number>> {
    const deleted = new Map<string, number>();
    for (;;) {
      // The counter first, as every history writer takes it: a sweep never deadlocks with an append.
      const perRoom = await inTransaction(this.#pool, async (client) => {
        await client.query(LOCK_CURSOR);
        const { rows } = await client.query<{ room_id: string; n: number }>(
          `WITH gone AS (
             DELETE FROM room_messages WHERE cursor IN (
               SELECT cursor FROM room_messages WHERE type = 'reject' AND received_at < $1 AND topic_kind = 'control' LIMIT $2)
             RETURNING room_id
           ), counted AS (SELECT room_id, count(*)::int AS n FROM gone GROUP BY room_id)
           , lowered AS (UPDATE rooms SET message_count = greatest(0, message_count - counted.n) FROM counted WHERE rooms.id = counted.room_id)
           SELECT room_id, n FROM counted`,
          [now - REJECTS_KEPT_MS, RETENTION_BATCH],
        );
        return rows;
      });
      let batch = 0;
      for (const { room_id, n } of perRoom) {
        deleted.set(room_id, (deleted.get(room_id) ?? 0) + n);
        batch += n;
      }
      if (batch < RETENTION_BATCH) break;
    }
    const horizon = minuteOf(now - ACTIVITY_KEPT_MS);
    await this.#pool.query('DELETE FROM room_activity_minutes WHERE minute < $1', [horizon]);
    await this.#pool.query('DELETE FROM reject_minutes WHERE minute < $1', [horizon]);
    return deleted;
  }

  /** The room's messages with a cursor below this go, as sqlite-room-store.ts finds it; undefined: none do. */
  async #retentionBound(row: RoomRow, now: number): Promise<number | undefined> {
    const retention = toRoom(row).retention!;
    let below: number | undefined;
    if (retention.maxMessages !== null && row.message_count > retention.maxMessages) {
      const { rows } = await this.#pool.query<{ cursor: number }>(
        'SELECT cursor FROM room_messages WHERE room_id = $1 ORDER BY cursor LIMIT 1 OFFSET $2',
        [row.id, row.message_count - retention.maxMessages],
      );
      if (rows[0]) below = rows[0].cursor;
    }
    const cutoff = retentionCutoff(retention, now);
    if (cutoff !== undefined) {
      const { rows } = await this.#pool.query<{ cursor: number }>(
        'SELECT cursor FROM room_messages WHERE room_id = $1 AND received_at >= $2 ORDER BY cursor LIMIT 1',
        [row.id, cutoff],
      );
      const byAge = rows[0] ? rows[0].cursor : Number.MAX_SAFE_INTEGER;
      below = below === undefined ? byAge : Math.max(below, byAge);
    }
    return below;
  }

  async listRooms(): Promise<RoomSummary[]> {
    //: ordered by code point, as SQLite's BINARY order, whatever the database locale.
    const { rows } = await this.#pool.query<RoomRow>('SELECT * FROM rooms ORDER BY id');
    return rows.map((row) => ({
      ...toRoom(row),
      lastActivityAt: row.last_activity_at,
      messageCount: row.message_count,
    }));
  }

  async appendMessage(message: NewRoomMessage): Promise<StoredRoomMessage> {
    const cursor = await this.#history.submit((client) => appendRow(client, message), { replayable: true });
    return { ...message, cursor };
  }

  async listMessages(query: MessageQuery): Promise<MessagePage> {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where = [`room_id = ${param(query.roomId)}`];
    if (query.before !== undefined) where.push(`cursor < ${param(query.before)}`);
    if (query.after !== undefined) where.push(`cursor > ${param(query.after)}`);
    // An empty list is no filter, like an absent one.
    const oneOf = (column: string, values: readonly string[]) =>
      where.push(values.length === 1 ? `${column} = ${param(values[0])}` : `${column} = ANY(${param(values)}::text[])`);
    if (query.types?.length) oneOf('type', query.types);
    if (query.agentId !== undefined) {
      const agent = param(query.agentId);
      where.push(`(from_id = ${agent} OR topic_agent_id = ${agent})`);
    }
    if (query.topicKinds?.length) oneOf('topic_kind', query.topicKinds);
    // `after` alone reads forward (backfill); otherwise the page nearest `before` (or the newest).
    const forward = query.after !== undefined && query.before === undefined;
    const { rows } = await this.#pool.query<MessageRow>(
      `SELECT * FROM room_messages WHERE ${where.join(' AND ')} ORDER BY cursor ${forward ? 'ASC' : 'DESC'} LIMIT ${param(query.limit + 1)}`,
      params,
    );
    const hasMore = rows.length > query.limit;
    const page = rows.slice(0, query.limit).map(toMessage);
    return { messages: forward ? page : page.reverse(), hasMore };
  }

  async roomActivity(roomId: string, sinceMs: number, nowMs: number): Promise<RoomActivity> {
    return pgRoomActivity(this.#pool, roomId, sinceMs, nowMs);
  }

  async rejectsByAgent(sinceMs: number, roomId?: string): Promise<AgentRejectCount[]> {
    return pgRejectsByAgent(this.#pool, sinceMs, roomId);
  }

  // Mic grants.

  async putGrant(grant: Omit<GrantRecord, 'spent' | 'endedAt' | 'endReason'>): Promise<GrantRecord> {
    // grantPut decides on the row read (decisions-server.md §1); the write changes the row only
    // while it is still that row, else the put is decided again on the row that replaced it.
    const key = [grant.roomId, grant.agentId, grant.taskId];
    const terms = [
      grant.maxMessages,
      JSON.stringify(grant.allowedTypes),
      grant.expiresAt,
      grant.grantedAt,
      grant.grantMessageId,
    ];
    for (;;) {
      const current = await grantRow(this.#pool, grant.roomId, grant.agentId, grant.taskId);
      let written: QueryResult<GrantRow>;
      switch (grantPut(current, grant)) {
        case 'keep':
          return current!;
        case 'insert':
          written = await this.#pool.query<GrantRow>(
            `INSERT INTO mic_grants (room_id, agent_id, task_id, max_messages, allowed_types, expires_at, granted_at, grant_message_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (room_id, agent_id, task_id) DO NOTHING RETURNING *`,
            [...key, ...terms],
          );
          break;
        case 'replace':
          written = await this.#pool.query<GrantRow>(
            `UPDATE mic_grants SET max_messages = $4, allowed_types = $5, expires_at = $6, granted_at = $7, grant_message_id = $8, spent = 0, ended_at = NULL, end_reason = NULL
             WHERE room_id = $1 AND agent_id = $2 AND task_id = $3 AND grant_message_id = $9 RETURNING *`,
            [...key, ...terms, current!.grantMessageId],
          );
      }
      if (written.rows[0]) return toGrant(written.rows[0]);
    }
  }

  async getGrant(roomId: string, agentId: string, taskId: string): Promise<GrantRecord | undefined> {
    return grantRow(this.#pool, roomId, agentId, taskId);
  }

  async listGrants(filter: { readonly roomId?: string; readonly active?: boolean }): Promise<GrantRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.roomId !== undefined) where.push(`room_id = $${params.push(filter.roomId)}`);
    // "Active" means not ended; a grant past expires_at stays active until the sweeper ends it.
    if (filter.active !== undefined) where.push(filter.active ? 'ended_at IS NULL' : 'ended_at IS NOT NULL');
    const { rows } = await this.#pool.query<GrantRow>(
      `SELECT * FROM mic_grants ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY room_id, agent_id, task_id`,
      params,
    );
    return rows.map(toGrant);
  }

  async spendGrant(roomId: string, agentId: string, taskId: string, nowSeconds: number): Promise<SpendResult> {
    return spendRow(this.#pool, roomId, agentId, taskId, nowSeconds);
  }

  async recordCandidate(
    candidate: NewRoomMessage | StoredRoomMessage,
    judgement: CandidateJudgement,
  ): Promise<CandidateRecord> {
    return this.#history.submit(
      async (client): Promise<CandidateRecord> => {
        const { grantKey } = judgement;
        const decision = judgement.decide(
          grantKey && (await grantRow(client, candidate.roomId, grantKey.agentId, grantKey.taskId)),
          grantKey && (await roomRow(client, candidate.roomId)),
        );
        const stored = isStored(candidate) ? candidate : { ...candidate, cursor: await appendRow(client, candidate) };
        const append = async (m: NewRoomMessage) => ({ ...m, cursor: await appendRow(client, m) });
        switch (decision.kind) {
          case 'reject':
            return { decision, candidate: stored, outgoing: await append(decision.reject) };
          case 'review':
            return { decision, candidate: stored, reviewItem: await insertReviewItem(client, decision.item) };
          case 'approve': {
            const spend = await spendRow(
              client,
              candidate.roomId,
              decision.agentId,
              decision.taskId,
              decision.nowSeconds,
            );
            return {
              decision,
              candidate: stored,
              spend,
              outgoing: await append(spend.ok ? decision.approved : decision.refused(spend.reason)),
            };
          }
        }
      },
      { replayable: true },
    );
  }

  async approveReviewItem(
    id: number,
    by: string,
    at: number,
    nowSeconds: number,
    message: (item: ReviewItem) => NewRoomMessage,
  ): Promise<(ApprovalResult & { readonly item: ReviewItem }) | undefined> {
    return this.#history.submit(
      async (client): Promise<(ApprovalResult & { readonly item: ReviewItem }) | undefined> => {
        const claimed = (
          await client.query<ReviewRow>(
            `UPDATE review_items SET status = 'approved', decided_by = $1, decided_at = $2 WHERE id = $3 AND status = 'pending' RETURNING *`,
            [by, at, id],
          )
        ).rows[0];
        if (!claimed) return undefined;
        const item = toReview(claimed);
        const spend = await spendRow(client, item.roomId, item.agentId, item.taskId, nowSeconds);
        if (!spend.ok) {
          const refused = (
            await client.query<ReviewRow>(
              `UPDATE review_items SET status = 'rejected', reason = $1 WHERE id = $2 RETURNING *`,
              [spend.reason, id],
            )
          ).rows[0]!;
          return { spend, item: toReview(refused) };
        }
        const built = message(item);
        return { spend, item, stored: { ...built, cursor: await appendRow(client, built) } };
      },
    );
  }

  async endGrant(roomId: string, agentId: string, taskId: string, reason: string, at: number): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      'UPDATE mic_grants SET ended_at = $1, end_reason = $2 WHERE room_id = $3 AND agent_id = $4 AND task_id = $5 AND ended_at IS NULL',
      [at, reason, roomId, agentId, taskId],
    );
    return rowCount === 1;
  }

  async listExpiredLiveGrants(nowSeconds: number): Promise<GrantRecord[]> {
    const { rows } = await this.#pool.query<GrantRow>(
      'SELECT * FROM mic_grants WHERE ended_at IS NULL AND expires_at < $1 ORDER BY room_id, agent_id, task_id',
      [nowSeconds],
    );
    return rows.map(toGrant);
  }

  // Review mode.

  async addReviewItem(item: NewReviewItem): Promise<ReviewItem> {
    return insertReviewItem(this.#pool, item);
  }

  async listReviewItems(roomId: string, status?: ReviewItem['status']): Promise<ReviewItem[]> {
    const { rows } =
      status === undefined
        ? await this.#pool.query<ReviewRow>('SELECT * FROM review_items WHERE room_id = $1 ORDER BY id', [roomId])
        : await this.#pool.query<ReviewRow>(
            'SELECT * FROM review_items WHERE room_id = $1 AND status = $2 ORDER BY id',
            [roomId, status],
          );
    return rows.map(toReview);
  }

  async getReviewItem(roomId: string, id: number): Promise<ReviewItem | undefined> {
    const { rows } = await this.#pool.query<ReviewRow>('SELECT * FROM review_items WHERE room_id = $1 AND id = $2', [
      roomId,
      id,
    ]);
    return rows[0] && toReview(rows[0]);
  }

  async decideReviewItem(
    id: number,
    status: 'approved' | 'rejected' | 'expired',
    by: string | null,
    reason: string | null,
    at: number,
  ): Promise<ReviewItem | undefined> {
    const row = (
      await this.#pool.query<ReviewRow>(
        `UPDATE review_items SET status = $1, decided_by = $2, decided_at = $3, reason = $4 WHERE id = $5 AND status = 'pending' RETURNING *`,
        [status, by, at, reason, id],
      )
    ).rows[0];
    return row && toReview(row);
  }
}

/**
 * The room's counters, the message row and its activity buckets (decisions-server.md §73), inside
 * a history transaction (it holds the cursor counter from its start to COMMIT), so cursors commit
 * in increasing order and a backfill from cursor n never passes over a message that commits later
 * with a smaller cursor.
 */
async function appendRow(client: PoolClient, m: NewRoomMessage): Promise<number> {
  // One statement, one round trip: the room row (created on first message, AOR rooms are
  // implicit), the next cursor, the message, its minute and (a reject) its reject bucket. The
  // foreign key is checked at the statement's end, when the room row exists. The probes see the
  // rows of earlier statements, not this one's: "an earlier candidate" (decisions-server.md §64).
  const reject = isReject(m) ? rejectFields(m.payload) : undefined;
  const { rows } = await client.query<{ cursor: number }>(
    `WITH room AS (
       INSERT INTO rooms (id, name, moderation, created_at, message_count, last_activity_at) VALUES ($1, $1, 'auto', $9, 1, $9)
       ON CONFLICT (id) DO UPDATE SET message_count = rooms.message_count + 1,
         last_activity_at = greatest(coalesce(rooms.last_activity_at, excluded.last_activity_at), excluded.last_activity_at)
       RETURNING id
     ), next AS (UPDATE store_counters SET value = value + 1 WHERE name = 'room_message_cursor' RETURNING value),
     minute AS (
       INSERT INTO room_activity_minutes (room_id, minute, messages, approved)
       VALUES ($1, $10, 1, CASE WHEN $11::boolean AND EXISTS (
         SELECT 1 FROM room_messages c WHERE c.topic_kind = 'public_candidates' AND c.room_id = $1 AND c.message_id = $5 LIMIT 1)
         THEN 1 ELSE 0 END)
       ON CONFLICT (room_id, minute) DO UPDATE SET messages = room_activity_minutes.messages + 1,
         approved = room_activity_minutes.approved + excluded.approved
     ), rejected AS (
       INSERT INTO reject_minutes (room_id, minute, reason, agent_id, rejects)
       SELECT $1, $10, $12::text, coalesce((
         SELECT c.topic_agent_id FROM room_messages c WHERE c.topic_kind = 'public_candidates' AND c.room_id = $1
           AND c.message_id = $13::text ORDER BY c.cursor DESC LIMIT 1), ''), 1
       WHERE $12::text IS NOT NULL
       ON CONFLICT (room_id, minute, reason, agent_id) DO UPDATE SET rejects = reject_minutes.rejects + 1
     )
     INSERT INTO room_messages (cursor, room_id, topic, topic_kind, topic_agent_id, message_id, type, from_id, payload, received_at)
     VALUES ((SELECT value FROM next), (SELECT id FROM room), $2, $3, $4, $5, $6, $7, $8, $9) RETURNING cursor`,
    [
      m.roomId,
      m.topic,
      m.topicKind,
      m.topicAgentId,
      m.messageId,
      m.type,
      m.fromId,
      bufferOf(m.payload),
      m.receivedAt,
      minuteOf(m.receivedAt),
      mayBeApproved(m),
      reject?.reason ?? null,
      reject?.messageId ?? null,
    ],
  );
  return rows[0]!.cursor;
}

async function roomRow(db: Db, id: string): Promise<Room | undefined> {
  const row = (await db.query<RoomRow>('SELECT * FROM rooms WHERE id = $1', [id])).rows[0];
  return row && toRoom(row);
}

async function grantRow(db: Db, roomId: string, agentId: string, taskId: string): Promise<GrantRecord | undefined> {
  const row = (
    await db.query<GrantRow>('SELECT * FROM mic_grants WHERE room_id = $1 AND agent_id = $2 AND task_id = $3', [
      roomId,
      agentId,
      taskId,
    ])
  ).rows[0];
  return row && toGrant(row);
}

async function insertReviewItem(db: Db, item: NewReviewItem): Promise<ReviewItem> {
  const { rows } = await db.query<ReviewRow>(
    'INSERT INTO review_items (room_id, agent_id, task_id, message_id, payload, submitted_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
    [item.roomId, item.agentId, item.taskId, item.messageId, bufferOf(item.payload), item.submittedAt],
  );
  return toReview(rows[0]!);
}

/**
 * The verdict is the UPDATE itself, which several instances need (decisions-server.md §2): it
 * changes the row only while the grant is not ended, in time and has budget, the SQL form of
 * shared/aor/stored-grants.ts's decideSpend.
 */
async function spendRow(
  db: Db,
  roomId: string,
  agentId: string,
  taskId: string,
  nowSeconds: number,
): Promise<SpendResult> {
  const now = wholeSeconds(nowSeconds);
  const spent = (
    await db.query<{ spent: number; max_messages: number }>(
      `UPDATE mic_grants SET spent = spent + 1
       WHERE room_id = $1 AND agent_id = $2 AND task_id = $3 AND ended_at IS NULL AND expires_at >= $4 AND spent < max_messages
       RETURNING spent, max_messages`,
      [roomId, agentId, taskId, now],
    )
  ).rows[0];
  if (spent) return { ok: true, spent: spent.spent, remaining: spent.max_messages - spent.spent };
  // Refused: the row is read only to name the reason, as the shared rule names it. A row that
  // looks spendable by then was replaced after the UPDATE; this spend still met a spent budget.
  const reason = spendRefusal(await grantRow(db, roomId, agentId, taskId), now);
  return { ok: false, reason: reason ?? RejectReason.messageLimitExceeded };
}
