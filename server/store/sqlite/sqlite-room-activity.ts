// A room's last hour from its history, on SQLite (RoomStore.roomActivity, rejectsByAgent;
// decisions-server.md §64). Each statement reads one index range: the room's rows by receive time,
// the rejects by receive time (a partial index: rejects only), and one candidate per approved copy
// or reject by its message id (a partial index: candidates only); migration 11 adds all three.
import type Database from 'better-sqlite3';
import { countAgents, countReasons, MINUTE_MS, rejectFields, type RejectRow } from '../rows/activity-rows';
import type { AgentRejectCount, RoomActivity } from '../store';

type Sql = (text: string) => Database.Statement;

export function sqliteRoomActivity(sql: Sql, roomId: string, sinceMs: number, nowMs: number): RoomActivity {
  const perMinute = sql(
    `SELECT (received_at / ${MINUTE_MS}) * ${MINUTE_MS} AS at, count(*) AS messages FROM room_messages
     WHERE room_id = ? AND received_at >= ? AND received_at <= ? GROUP BY 1 ORDER BY 1`,
  ).all(roomId, sinceMs, nowMs) as { at: number; messages: number }[];
  // A copy the gateway approved (live, or a facilitator in review mode) carries its candidate's id;
  // a facilitator's own message on public has no candidate before it.
  const { approved } = sql(
    `SELECT count(*) AS approved FROM room_messages p
     WHERE p.room_id = ? AND p.received_at >= ? AND p.received_at <= ? AND p.topic_kind = 'public'
       AND p.message_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM room_messages c WHERE c.topic_kind = 'public_candidates'
                   AND c.room_id = p.room_id AND c.message_id = p.message_id AND c.cursor < p.cursor)`,
  ).get(roomId, sinceMs, nowMs) as { approved: number };
  const rejects = sql(
    `SELECT room_id, cursor, payload FROM room_messages INDEXED BY room_messages_rejects
     WHERE type = 'reject' AND received_at >= ? AND received_at <= ? AND room_id = ? AND topic_kind = 'control'`,
  ).all(sinceMs, nowMs, roomId) as RejectRow[];
  return { perMinute, approved, rejected: countReasons(rejects) };
}

export function sqliteRejectsByAgent(sql: Sql, sinceMs: number, roomId?: string): AgentRejectCount[] {
  const rejects = (
    roomId === undefined
      ? sql(
          `SELECT room_id, cursor, payload FROM room_messages INDEXED BY room_messages_rejects
           WHERE type = 'reject' AND received_at >= ? AND topic_kind = 'control'`,
        ).all(sinceMs)
      : sql(
          `SELECT room_id, cursor, payload FROM room_messages INDEXED BY room_messages_rejects
           WHERE type = 'reject' AND received_at >= ? AND room_id = ? AND topic_kind = 'control'`,
        ).all(sinceMs, roomId)
  ) as RejectRow[];
  // In-process, one indexed probe per reject costs microseconds; the newest earlier candidate
  // with the id is the one refused (a reused id names the later candidate, not the first).
  const candidate = sql(
    `SELECT topic_agent_id FROM room_messages WHERE topic_kind = 'public_candidates'
     AND room_id = ? AND message_id = ? AND cursor < ? ORDER BY cursor DESC LIMIT 1`,
  );
  return countAgents(
    rejects.map((row) => {
      const { messageId } = rejectFields(row.payload);
      if (messageId === null) return null;
      const found = candidate.get(row.room_id, messageId, row.cursor) as { topic_agent_id: string | null } | undefined;
      return found?.topic_agent_id ?? null;
    }),
  );
}
