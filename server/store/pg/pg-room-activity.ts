// A room's activity from its maintained aggregates, on PostgreSQL (RoomStore.roomActivity,
// rejectsByAgent; decisions-server.md §64, §73): the buckets pg-room-store.ts's appendRow keeps in
// the statement that appends each row. A read sums at most 61 minute buckets per room.
import type { Pool } from 'pg';
import { byAgent, byReason, minuteOf, windowMinutes } from '../rows/activity-rows';
import type { AgentRejectCount, RoomActivity } from '../store';

export async function pgRoomActivity(
  pool: Pool,
  roomId: string,
  sinceMs: number,
  nowMs: number,
): Promise<RoomActivity> {
  const { first, last } = windowMinutes(sinceMs, nowMs);
  const window = [roomId, first, last];
  const [minutes, reasons] = await Promise.all([
    pool.query<{ at: number; messages: number; approved: number }>(
      `SELECT minute AS at, messages, approved FROM room_activity_minutes
       WHERE room_id = $1 AND minute >= $2 AND minute <= $3 ORDER BY minute`,
      window,
    ),
    pool.query<{ reason: string; count: number }>(
      `SELECT reason, sum(rejects)::bigint AS count FROM reject_minutes
       WHERE room_id = $1 AND minute >= $2 AND minute <= $3 GROUP BY reason`,
      window,
    ),
  ]);
  return {
    perMinute: minutes.rows.filter((m) => m.messages > 0).map(({ at, messages }) => ({ at, messages })),
    approved: minutes.rows.reduce((sum, m) => sum + m.approved, 0),
    rejected: byReason(reasons.rows),
  };
}

export async function pgRejectsByAgent(pool: Pool, sinceMs: number, roomId?: string): Promise<AgentRejectCount[]> {
  const { rows } =
    roomId === undefined
      ? await pool.query<{ agent_id: string; rejects: number }>(
          `SELECT agent_id, sum(rejects)::bigint AS rejects FROM reject_minutes WHERE minute >= $1 GROUP BY agent_id`,
          [minuteOf(sinceMs)],
        )
      : await pool.query<{ agent_id: string; rejects: number }>(
          `SELECT agent_id, sum(rejects)::bigint AS rejects FROM reject_minutes
           WHERE room_id = $1 AND minute >= $2 GROUP BY agent_id`,
          [roomId, minuteOf(sinceMs)],
        );
  return byAgent(rows);
}
