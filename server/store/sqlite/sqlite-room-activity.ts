// A room's activity as maintained aggregates, on SQLite (RoomStore.roomActivity, rejectsByAgent;
// decisions-server.md §64, §73). Each history row is tallied as it is appended, inside the group
// commit's transaction: the tallies of one transaction are kept in memory and written as its last
// statements (one upsert per bucket, not per row), and forgotten when it rolls back. A read sums
// at most 61 minute buckets per room, so it costs the same at one reject or ten million.
import type Database from 'better-sqlite3';
import {
  byAgent,
  byReason,
  isReject,
  mayBeApproved,
  minuteOf,
  NOBODY,
  rejectFields,
  windowMinutes,
} from '../rows/activity-rows';
import type { AgentRejectCount, NewRoomMessage, RoomActivity } from '../store';

type Sql = (text: string) => Database.Statement;

/** The tallies of the open transaction, per room minute and per reject bucket. */
export class SqliteActivityTallies {
  readonly #sql: Sql;
  readonly #minutes = new Map<string, { roomId: string; minute: number; messages: number; approved: number }>();
  readonly #rejects = new Map<string, { roomId: string; minute: number; reason: string; agentId: string; n: number }>();

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  /** Tallies a row just appended with `cursor` (its candidate, if any, has a smaller one). */
  note(m: NewRoomMessage, cursor: number): void {
    const minute = minuteOf(m.receivedAt);
    const key = `${m.roomId}\u0000${minute}`;
    const bucket = this.#minutes.get(key) ?? { roomId: m.roomId, minute, messages: 0, approved: 0 };
    bucket.messages++;
    if (mayBeApproved(m) && this.#candidate(m.roomId, m.messageId, cursor) !== undefined) bucket.approved++;
    this.#minutes.set(key, bucket);
    if (!isReject(m)) return;
    const { reason, messageId } = rejectFields(m.payload);
    // decisions-server.md §64: the agent the broker authenticated as the publisher of the newest
    // earlier candidate with the refused id; nobody without an id or a known publisher.
    const agentId = (messageId !== null && this.#candidate(m.roomId, messageId, cursor)) || NOBODY;
    const rejectKey = `${key}\u0000${reason}\u0000${agentId}`;
    const tally = this.#rejects.get(rejectKey) ?? { roomId: m.roomId, minute, reason, agentId, n: 0 };
    tally.n++;
    this.#rejects.set(rejectKey, tally);
  }

  /** The newest earlier candidate's publisher: '' when it had none, undefined when there is no candidate. */
  #candidate(roomId: string, messageId: string, cursor: number): string | undefined {
    const row = this.#sql(
      `SELECT topic_agent_id FROM room_messages WHERE topic_kind = 'public_candidates'
       AND room_id = ? AND message_id = ? AND cursor < ? ORDER BY cursor DESC LIMIT 1`,
    ).get(roomId, messageId, cursor) as { topic_agent_id: string | null } | undefined;
    return row && (row.topic_agent_id ?? NOBODY);
  }

  /** Inside the transaction that appended the rows, as its last statements. */
  write(): void {
    const minute = this.#sql(
      `INSERT INTO room_activity_minutes (room_id, minute, messages, approved) VALUES (?, ?, ?, ?)
       ON CONFLICT (room_id, minute) DO UPDATE SET messages = messages + excluded.messages, approved = approved + excluded.approved`,
    );
    for (const b of this.#minutes.values()) minute.run(b.roomId, b.minute, b.messages, b.approved);
    const reject = this.#sql(
      `INSERT INTO reject_minutes (room_id, minute, reason, agent_id, rejects) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (room_id, minute, reason, agent_id) DO UPDATE SET rejects = rejects + excluded.rejects`,
    );
    for (const t of this.#rejects.values()) reject.run(t.roomId, t.minute, t.reason, t.agentId, t.n);
    this.forget();
  }

  forget(): void {
    this.#minutes.clear();
    this.#rejects.clear();
  }
}

export function sqliteRoomActivity(sql: Sql, roomId: string, sinceMs: number, nowMs: number): RoomActivity {
  const { first, last } = windowMinutes(sinceMs, nowMs);
  const minutes = sql(
    `SELECT minute AS at, messages, approved FROM room_activity_minutes
     WHERE room_id = ? AND minute >= ? AND minute <= ? ORDER BY minute`,
  ).all(roomId, first, last) as { at: number; messages: number; approved: number }[];
  const reasons = sql(
    `SELECT reason, sum(rejects) AS count FROM reject_minutes
     WHERE room_id = ? AND minute >= ? AND minute <= ? GROUP BY reason`,
  ).all(roomId, first, last) as { reason: string; count: number }[];
  return {
    perMinute: minutes.filter((m) => m.messages > 0).map(({ at, messages }) => ({ at, messages })),
    approved: minutes.reduce((sum, m) => sum + m.approved, 0),
    rejected: byReason(reasons),
  };
}

export function sqliteRejectsByAgent(sql: Sql, sinceMs: number, roomId?: string): AgentRejectCount[] {
  const rows = (
    roomId === undefined
      ? sql(
          `SELECT agent_id, sum(rejects) AS rejects FROM reject_minutes INDEXED BY reject_minutes_by_minute
           WHERE minute >= ? GROUP BY agent_id`,
        ).all(minuteOf(sinceMs))
      : sql(
          `SELECT agent_id, sum(rejects) AS rejects FROM reject_minutes
           WHERE room_id = ? AND minute >= ? GROUP BY agent_id`,
        ).all(roomId, minuteOf(sinceMs))
  ) as { agent_id: string; rejects: number }[];
  return byAgent(rows);
}
