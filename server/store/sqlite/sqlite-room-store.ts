// Rooms, their history, mic grants and review mode, on SQLite. History appends, spends and the
// gateway's candidate records share the store's group commit (one commit per event-loop turn).
// A spend is decided inside that IMMEDIATE transaction against the grant as the transaction sees
// it (transaction-grants.ts); every other decision (decide a review item, end a grant) is one
// conditional statement whose affected row is the verdict, as in pg-room-store.ts.
import type Database from 'better-sqlite3';
import { grantPut } from '@shared/aor/stored-grants';
import { CodedError } from '@shared/errors';
import { ACTIVITY_KEPT_MS, minuteOf, REJECTS_KEPT_MS } from '../rows/activity-rows';
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
import {
  isStored,
  type AgentRejectCount,
  type ApprovalResult,
  type CandidateJudgement,
  type CandidateRecord,
  type GrantRecord,
  type HistoryRetention,
  type MessagePage,
  type MessageQuery,
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
import type { SqliteGroupCommit } from './sqlite-group-commit';
import { SqliteActivityTallies, sqliteRejectsByAgent, sqliteRoomActivity } from './sqlite-room-activity';
import { statementCache } from './statement-cache';
import { readGrant, TransactionGrants } from './transaction-grants';

export class SqliteRoomStore implements RoomStore {
  readonly #db: Database.Database;
  readonly #sql: (text: string) => Database.Statement;
  readonly #commits: SqliteGroupCommit;
  #appendsSinceOptimize = 0;
  /**
   * Per room, the rows appended in the open transaction and their newest receive time: the rooms
   * row's counters are written once per room at its end, not once per row (docs/benchmarks.md).
   */
  readonly #counts = new Map<string, { n: number; last: number }>();
  /** The grants the open transaction read or spent, written once at its end. */
  readonly #grants: TransactionGrants;
  /** The rooms rows the open transaction read (candidates read their room's moderation mode). */
  readonly #roomsRead = new Map<string, Room>();
  /** The activity the open transaction's rows add, written once per bucket at its end (§73). */
  readonly #activity: SqliteActivityTallies;

  constructor(db: Database.Database, commits: SqliteGroupCommit) {
    this.#db = db;
    this.#sql = statementCache(db);
    this.#commits = commits;
    this.#grants = new TransactionGrants(this.#sql);
    this.#activity = new SqliteActivityTallies(this.#sql);
    commits.addHooks({
      beforeCommit: () => {
        this.#writeCounts();
        this.#grants.write();
        this.#activity.write();
        this.#roomsRead.clear();
      },
      afterRollback: () => {
        this.#counts.clear();
        this.#grants.forget();
        this.#activity.forget();
        this.#roomsRead.clear();
      },
    });
  }

  // Rooms and their history.

  async ensureRoom(room: Omit<Room, 'createdAt'> & { readonly createdAt?: number }): Promise<Room> {
    this.#sql(
      'INSERT INTO rooms (id, name, moderation, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ).run(room.id, room.name, room.moderation, room.createdAt ?? Date.now());
    return toRoom(this.#sql('SELECT * FROM rooms WHERE id = ?').get(room.id) as RoomRow);
  }

  async getRoom(id: string): Promise<Room | undefined> {
    return this.#roomRow(id);
  }

  #roomInTransaction(id: string): Room | undefined {
    const held = this.#roomsRead.get(id);
    if (held) return held;
    const room = this.#roomRow(id);
    if (room) this.#roomsRead.set(id, room);
    return room;
  }

  #roomRow(id: string): Room | undefined {
    const row = this.#sql('SELECT * FROM rooms WHERE id = ?').get(id) as RoomRow | undefined;
    return row && toRoom(row);
  }

  async setModeration(roomId: string, mode: ModerationMode): Promise<void> {
    const { changes } = this.#sql('UPDATE rooms SET moderation = ? WHERE id = ?').run(mode, roomId);
    if (changes === 0) throw new CodedError('ROOM_NOT_FOUND', `Room ${roomId} does not exist.`, { roomId });
  }

  async setRetention(roomId: string, retention: HistoryRetention | null): Promise<void> {
    const { changes } = this.#sql(
      'UPDATE rooms SET history_max_messages = ?, history_max_age_days = ? WHERE id = ?',
    ).run(retention?.maxMessages ?? null, retention?.maxAgeDays ?? null, roomId);
    if (changes === 0) throw new CodedError('ROOM_NOT_FOUND', `Room ${roomId} does not exist.`, { roomId });
  }

  async applyRetention(now: number): Promise<{ roomId: string; deleted: number }[]> {
    const rows = this.#sql(
      'SELECT * FROM rooms WHERE history_max_messages IS NOT NULL OR history_max_age_days IS NOT NULL ORDER BY id',
    ).all() as RoomRow[];
    const swept: { roomId: string; deleted: number }[] = [];
    for (const row of rows) {
      // Rows appended meanwhile have larger cursors, so the bound holds for the whole sweep.
      const below = this.#retentionBound(row, now);
      if (below === undefined) continue;
      let deleted = 0;
      // One batch per IMMEDIATE transaction, the event loop free between them: history appends
      // (the group commit) wait for one batch at most, never for a whole sweep.
      for (;;) {
        const batch = this.#db
          .transaction(() => {
            const { changes } = this.#sql(
              'DELETE FROM room_messages WHERE cursor IN (SELECT cursor FROM room_messages WHERE room_id = ? AND cursor < ? ORDER BY cursor LIMIT ?)',
            ).run(row.id, below, RETENTION_BATCH);
            if (changes > 0)
              this.#sql('UPDATE rooms SET message_count = max(0, message_count - ?) WHERE id = ?').run(changes, row.id);
            return changes;
          })
          .immediate();
        deleted += batch;
        if (batch < RETENTION_BATCH) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (deleted > 0) swept.push({ roomId: row.id, deleted });
    }
    return mergeSwept(swept, await this.#sweepRejects(now));
  }

  /**
   * Every room's `reject` rows older than REJECTS_KEPT_MS, in batches as above, and the activity
   * buckets older than ACTIVITY_KEPT_MS (decisions-server.md §74): the counts already hold them.
   */
  async #sweepRejects(now: number): Promise<Map<string, number>> {
    const deleted = new Map<string, number>();
    for (;;) {
      const batch = this.#db
        .transaction(() => {
          const gone = this.#sql(
            `DELETE FROM room_messages WHERE cursor IN (
               SELECT cursor FROM room_messages INDEXED BY room_messages_rejects
               WHERE type = 'reject' AND received_at < ? AND topic_kind = 'control' LIMIT ?)
             RETURNING room_id`,
          ).all(now - REJECTS_KEPT_MS, RETENTION_BATCH) as { room_id: string }[];
          const perRoom = new Map<string, number>();
          for (const { room_id } of gone) perRoom.set(room_id, (perRoom.get(room_id) ?? 0) + 1);
          for (const [roomId, n] of perRoom) {
            this.#sql('UPDATE rooms SET message_count = max(0, message_count - ?) WHERE id = ?').run(n, roomId);
            deleted.set(roomId, (deleted.get(roomId) ?? 0) + n);
          }
          return gone.length;
        })
        .immediate();
      if (batch < RETENTION_BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const horizon = minuteOf(now - ACTIVITY_KEPT_MS);
    this.#sql('DELETE FROM room_activity_minutes WHERE minute < ?').run(horizon);
    this.#sql('DELETE FROM reject_minutes WHERE minute < ?').run(horizon);
    return deleted;
  }

  /** The room's messages with a cursor below this go (the oldest in cursor order); undefined: none do. */
  #retentionBound(row: RoomRow, now: number): number | undefined {
    const { maxMessages } = toRoom(row).retention!;
    let below: number | undefined;
    if (maxMessages !== null && row.message_count > maxMessages) {
      // The count kept with every append and delete says how many are too many; the walk from the
      // oldest end then costs what the sweep deletes, not the `maxMessages` rows it keeps.
      const first = this.#sql(
        'SELECT cursor FROM room_messages WHERE room_id = ? ORDER BY cursor LIMIT 1 OFFSET ?',
      ).get(row.id, row.message_count - maxMessages) as { cursor: number } | undefined;
      if (first) below = first.cursor;
    }
    const cutoff = retentionCutoff(toRoom(row).retention!, now);
    if (cutoff !== undefined) {
      // The oldest message young enough to keep, found by walking up from the oldest: again the
      // walk costs what the sweep deletes.
      const kept = this.#sql(
        'SELECT cursor FROM room_messages WHERE room_id = ? AND received_at >= ? ORDER BY cursor LIMIT 1',
      ).get(row.id, cutoff) as { cursor: number } | undefined;
      const byAge = kept ? kept.cursor : Number.MAX_SAFE_INTEGER;
      below = below === undefined ? byAge : Math.max(below, byAge);
    }
    return below;
  }

  async listRooms(): Promise<RoomSummary[]> {
    const rows = this.#sql('SELECT * FROM rooms ORDER BY id').all() as RoomRow[];
    return rows.map((row) => ({
      ...toRoom(row),
      lastActivityAt: row.last_activity_at,
      messageCount: row.message_count,
    }));
  }

  async appendMessage(message: NewRoomMessage): Promise<StoredRoomMessage> {
    const cursor = await this.#commits.submit(() => this.#appendRow(message));
    this.#countAppends(1);
    return { ...message, cursor };
  }

  /** Appends inside the running transaction; the stored row with its cursor. */
  #append(m: NewRoomMessage): StoredRoomMessage {
    return { ...m, cursor: this.#appendRow(m) };
  }

  /** Cheap when nothing changed much; refreshes the planner's statistics as a history grows. */
  #countAppends(n: number): void {
    this.#appendsSinceOptimize += n;
    if (this.#appendsSinceOptimize < 10_000 || !this.#db.open) return;
    this.#appendsSinceOptimize = 0;
    this.#db.pragma('optimize');
  }

  /**
   * The message row. A room's first row in the transaction makes sure its rooms row exists (a
   * history may be written for a room nobody created, and the foreign key needs the row first);
   * its counters are written when the transaction ends (#writeCounts).
   */
  #appendRow(m: NewRoomMessage): number {
    const counted = this.#counts.get(m.roomId);
    if (counted) {
      counted.n++;
      counted.last = Math.max(counted.last, m.receivedAt);
    } else {
      this.#sql(
        `INSERT INTO rooms (id, name, moderation, created_at) VALUES (?, ?, 'auto', ?) ON CONFLICT (id) DO NOTHING`,
      ).run(m.roomId, m.roomId, m.receivedAt);
      this.#counts.set(m.roomId, { n: 1, last: m.receivedAt });
    }
    // The cursor is the rowid (INTEGER PRIMARY KEY); reading it back costs less than RETURNING,
    // which takes about a third of an append (docs/benchmarks.md, "Gateway").
    const { lastInsertRowid } = this.#sql(
      `INSERT INTO room_messages (room_id, topic, topic_kind, topic_agent_id, message_id, type, from_id, payload, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      m.roomId,
      m.topic,
      m.topicKind,
      m.topicAgentId,
      m.messageId,
      m.type,
      m.fromId,
      bufferOf(m.payload),
      m.receivedAt,
    );
    const cursor = Number(lastInsertRowid);
    this.#activity.note(m, cursor);
    return cursor;
  }

  /** Inside the transaction that appended the rows, as its last statements. */
  #writeCounts(): void {
    for (const [roomId, { n, last }] of this.#counts) {
      this.#sql(
        `UPDATE rooms SET message_count = message_count + ?, last_activity_at = max(coalesce(last_activity_at, ?), ?) WHERE id = ?`,
      ).run(n, last, last, roomId);
    }
    this.#counts.clear();
  }

  async listMessages(query: MessageQuery): Promise<MessagePage> {
    const where = ['room_id = ?'];
    const params: (string | number)[] = [query.roomId];
    if (query.before !== undefined) {
      where.push('cursor < ?');
      params.push(query.before);
    }
    if (query.after !== undefined) {
      where.push('cursor > ?');
      params.push(query.after);
    }
    // An empty list is no filter, like an absent one. Each value gets its own placeholder (and
    // one value an equality) because STAT4 plans by bound values only there: a rare type then
    // reads its index, a common one scans the room by cursor.
    const oneOf = (column: string, values: readonly string[]) => {
      where.push(values.length === 1 ? `${column} = ?` : `${column} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    };
    if (query.types?.length) oneOf('type', query.types);
    if (query.agentId !== undefined) {
      where.push('(from_id = ? OR topic_agent_id = ?)');
      params.push(query.agentId, query.agentId);
    }
    if (query.topicKinds?.length) oneOf('topic_kind', query.topicKinds);
    // `after` alone reads forward (backfill); otherwise the page nearest `before` (or the newest).
    const forward = query.after !== undefined && query.before === undefined;
    const rows = this.#sql(
      `SELECT * FROM room_messages WHERE ${where.join(' AND ')} ORDER BY cursor ${forward ? 'ASC' : 'DESC'} LIMIT ?`,
    ).all(...params, query.limit + 1) as MessageRow[];
    const hasMore = rows.length > query.limit;
    const page = rows.slice(0, query.limit).map(toMessage);
    return { messages: forward ? page : page.reverse(), hasMore };
  }

  async roomActivity(roomId: string, sinceMs: number, nowMs: number): Promise<RoomActivity> {
    return sqliteRoomActivity(this.#sql, roomId, sinceMs, nowMs);
  }

  async rejectsByAgent(sinceMs: number, roomId?: string): Promise<AgentRejectCount[]> {
    return sqliteRejectsByAgent(this.#sql, sinceMs, roomId);
  }

  // Mic grants.

  async putGrant(grant: Omit<GrantRecord, 'spent' | 'endedAt' | 'endReason'>): Promise<GrantRecord> {
    // grantPut decides on the row read (decisions-server.md §1); the write changes the row only
    // while it is still that row, else the put is decided again on the row that replaced it.
    const terms = [
      grant.maxMessages,
      JSON.stringify(grant.allowedTypes),
      grant.expiresAt,
      grant.grantedAt,
      grant.grantMessageId,
    ];
    for (;;) {
      const current = readGrant(this.#sql, grant.roomId, grant.agentId, grant.taskId);
      let row: GrantRow | undefined;
      switch (grantPut(current, grant)) {
        case 'keep':
          return current!;
        case 'insert':
          row = this.#sql(
            `INSERT INTO mic_grants (room_id, agent_id, task_id, max_messages, allowed_types, expires_at, granted_at, grant_message_id)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (room_id, agent_id, task_id) DO NOTHING RETURNING *`,
          ).get(grant.roomId, grant.agentId, grant.taskId, ...terms) as GrantRow | undefined;
          break;
        case 'replace':
          row = this.#sql(
            `UPDATE mic_grants SET max_messages = ?, allowed_types = ?, expires_at = ?, granted_at = ?, grant_message_id = ?, spent = 0, ended_at = NULL, end_reason = NULL
             WHERE room_id = ? AND agent_id = ? AND task_id = ? AND grant_message_id = ? RETURNING *`,
          ).get(...terms, grant.roomId, grant.agentId, grant.taskId, current!.grantMessageId) as GrantRow | undefined;
      }
      if (row) return toGrant(row);
    }
  }

  async getGrant(roomId: string, agentId: string, taskId: string): Promise<GrantRecord | undefined> {
    return readGrant(this.#sql, roomId, agentId, taskId);
  }

  async listGrants(filter: { readonly roomId?: string; readonly active?: boolean }): Promise<GrantRecord[]> {
    const where: string[] = [];
    const params: string[] = [];
    if (filter.roomId !== undefined) {
      where.push('room_id = ?');
      params.push(filter.roomId);
    }
    // "Active" means not ended; a grant past expires_at stays active until the sweeper ends it.
    if (filter.active !== undefined) where.push(filter.active ? 'ended_at IS NULL' : 'ended_at IS NOT NULL');
    const rows = this.#sql(
      `SELECT * FROM mic_grants ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY room_id, agent_id, task_id`,
    ).all(...params) as GrantRow[];
    return rows.map(toGrant);
  }

  async spendGrant(roomId: string, agentId: string, taskId: string, nowSeconds: number): Promise<SpendResult> {
    return this.#commits.submit(() => this.#grants.spend(roomId, agentId, taskId, nowSeconds));
  }

  async recordCandidate(
    candidate: NewRoomMessage | StoredRoomMessage,
    judgement: CandidateJudgement,
  ): Promise<CandidateRecord> {
    const record = await this.#commits.submit((): CandidateRecord => {
      const { grantKey } = judgement;
      const decision = judgement.decide(
        grantKey && this.#grants.get(candidate.roomId, grantKey.agentId, grantKey.taskId),
        grantKey && this.#roomInTransaction(candidate.roomId),
      );
      const stored = isStored(candidate) ? candidate : this.#append(candidate);
      switch (decision.kind) {
        case 'reject':
          return { decision, candidate: stored, outgoing: this.#append(decision.reject) };
        case 'review':
          return { decision, candidate: stored, reviewItem: this.#insertReviewItem(decision.item) };
        case 'approve': {
          const spend = this.#grants.spend(candidate.roomId, decision.agentId, decision.taskId, decision.nowSeconds);
          return {
            decision,
            candidate: stored,
            spend,
            outgoing: this.#append(spend.ok ? decision.approved : decision.refused(spend.reason)),
          };
        }
      }
    });
    this.#countAppends((record.outgoing ? 1 : 0) + (isStored(candidate) ? 0 : 1));
    return record;
  }

  async approveReviewItem(
    id: number,
    by: string,
    at: number,
    nowSeconds: number,
    message: (item: ReviewItem) => NewRoomMessage,
  ): Promise<(ApprovalResult & { readonly item: ReviewItem }) | undefined> {
    return this.#commits.submit((): (ApprovalResult & { readonly item: ReviewItem }) | undefined => {
      const claimed = this.#sql(
        `UPDATE review_items SET status = 'approved', decided_by = ?, decided_at = ? WHERE id = ? AND status = 'pending' RETURNING *`,
      ).get(by, at, id) as ReviewRow | undefined;
      if (!claimed) return undefined;
      const item = toReview(claimed);
      const spend = this.#grants.spend(item.roomId, item.agentId, item.taskId, nowSeconds);
      if (!spend.ok) {
        const refused = this.#sql(
          `UPDATE review_items SET status = 'rejected', reason = ? WHERE id = ? RETURNING *`,
        ).get(spend.reason, id) as ReviewRow;
        return { spend, item: toReview(refused) };
      }
      const built = message(item);
      return { spend, item, stored: this.#append(built) };
    });
  }

  async endGrant(roomId: string, agentId: string, taskId: string, reason: string, at: number): Promise<boolean> {
    const { changes } = this.#sql(
      'UPDATE mic_grants SET ended_at = ?, end_reason = ? WHERE room_id = ? AND agent_id = ? AND task_id = ? AND ended_at IS NULL',
    ).run(at, reason, roomId, agentId, taskId);
    return changes === 1;
  }

  async listExpiredLiveGrants(nowSeconds: number): Promise<GrantRecord[]> {
    const rows = this.#sql(
      'SELECT * FROM mic_grants WHERE ended_at IS NULL AND expires_at < ? ORDER BY room_id, agent_id, task_id',
    ).all(nowSeconds) as GrantRow[];
    return rows.map(toGrant);
  }

  // Review mode.

  async addReviewItem(item: NewReviewItem): Promise<ReviewItem> {
    return this.#insertReviewItem(item);
  }

  #insertReviewItem(item: NewReviewItem): ReviewItem {
    const row = this.#sql(
      `INSERT INTO review_items (room_id, agent_id, task_id, message_id, payload, submitted_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      item.roomId,
      item.agentId,
      item.taskId,
      item.messageId,
      bufferOf(item.payload),
      item.submittedAt,
    ) as ReviewRow;
    return toReview(row);
  }

  async listReviewItems(roomId: string, status?: ReviewItem['status']): Promise<ReviewItem[]> {
    const rows = (
      status === undefined
        ? this.#sql('SELECT * FROM review_items WHERE room_id = ? ORDER BY id').all(roomId)
        : this.#sql('SELECT * FROM review_items WHERE room_id = ? AND status = ? ORDER BY id').all(roomId, status)
    ) as ReviewRow[];
    return rows.map(toReview);
  }

  async getReviewItem(roomId: string, id: number): Promise<ReviewItem | undefined> {
    const row = this.#sql('SELECT * FROM review_items WHERE room_id = ? AND id = ?').get(roomId, id) as
      ReviewRow | undefined;
    return row && toReview(row);
  }

  async decideReviewItem(
    id: number,
    status: 'approved' | 'rejected' | 'expired',
    by: string | null,
    reason: string | null,
    at: number,
  ): Promise<ReviewItem | undefined> {
    const row = this.#sql(
      `UPDATE review_items SET status = ?, decided_by = ?, decided_at = ?, reason = ? WHERE id = ? AND status = 'pending' RETURNING *`,
    ).get(status, by, at, reason, id) as ReviewRow | undefined;
    return row && toReview(row);
  }
}
