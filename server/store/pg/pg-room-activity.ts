// A room's last hour from its history, on PostgreSQL (RoomStore.roomActivity, rejectsByAgent;
// decisions-server.md §64), over the indexes of migration 9. The same statements as
// sqlite-room-activity.ts, except that a reject's candidates are looked up in one round trip
// (a LATERAL probe per reject) instead of one statement each.
import type { Pool } from 'pg';
import { countAgents, countReasons, MINUTE_MS, rejectFields, type RejectRow } from '../rows/activity-rows';
import type { AgentRejectCount, RoomActivity } from '../store';

/**
 * Every room's rejects since the parameter `since`, through the rejects-only index. Materialised
 * so that a room's filter, added outside, cannot steer the planner to the room's type index
 * (which reads every reject the room ever had), whatever the statistics say.
 */
const rejectsSince = (since: string) => `WITH r AS MATERIALIZED (
    SELECT room_id, cursor, payload, received_at FROM room_messages
    WHERE type = 'reject' AND received_at >= ${since} AND topic_kind = 'control')
  SELECT room_id, cursor, payload FROM r`;

export async function pgRoomActivity(
  pool: Pool,
  roomId: string,
  sinceMs: number,
  nowMs: number,
): Promise<RoomActivity> {
  const window = [roomId, sinceMs, nowMs];
  const [perMinute, approved, rejects] = await Promise.all([
    pool.query<{ at: number; messages: number }>(
      `SELECT (received_at / ${MINUTE_MS}) * ${MINUTE_MS} AS at, count(*)::int AS messages FROM room_messages
       WHERE room_id = $1 AND received_at >= $2 AND received_at <= $3 GROUP BY 1 ORDER BY 1`,
      window,
    ),
    // A copy the gateway approved carries its candidate's id; a facilitator's own message does not.
    // The window first (materialised: the time index, whatever the statistics say), then one
    // index probe per public row (LIMIT 1 keeps it a probe): written as a plain EXISTS, a table
    // not yet analysed got a semi-join that read every candidate of the room per copy.
    pool.query<{ approved: number }>(
      `WITH w AS MATERIALIZED (
         SELECT cursor, topic_kind, message_id FROM room_messages
         WHERE room_id = $1 AND received_at >= $2 AND received_at <= $3)
       SELECT count(*)::int AS approved FROM w
       CROSS JOIN LATERAL (SELECT 1 FROM room_messages c
                           WHERE c.topic_kind = 'public_candidates' AND c.room_id = $1
                             AND c.message_id = w.message_id AND c.cursor < w.cursor LIMIT 1) c
       WHERE w.topic_kind = 'public'`,
      window,
    ),
    pool.query<RejectRow>(`${rejectsSince('$2')} WHERE room_id = $1 AND received_at <= $3`, window),
  ]);
  return {
    perMinute: perMinute.rows.map((r) => ({ at: Number(r.at), messages: r.messages })),
    approved: approved.rows[0]!.approved,
    rejected: countReasons(rejects.rows),
  };
}

export async function pgRejectsByAgent(pool: Pool, sinceMs: number, roomId?: string): Promise<AgentRejectCount[]> {
  const { rows } =
    roomId === undefined
      ? await pool.query<RejectRow>(rejectsSince('$1'), [sinceMs])
      : await pool.query<RejectRow>(`${rejectsSince('$1')} WHERE room_id = $2`, [sinceMs, roomId]);
  const named = rows.flatMap((row) => {
    const { messageId } = rejectFields(row.payload);
    return messageId === null ? [] : [{ ...row, messageId }];
  });
  if (named.length === 0) return [];
  // The newest earlier candidate with the id is the one refused (a reused id names the later one).
  const found = await pool.query<{ agent_id: string | null }>(
    `SELECT c.topic_agent_id AS agent_id
     FROM unnest($1::text[], $2::text[], $3::bigint[]) AS r (room_id, message_id, cursor)
     CROSS JOIN LATERAL (SELECT topic_agent_id FROM room_messages
                         WHERE topic_kind = 'public_candidates' AND room_id = r.room_id
                           AND message_id = r.message_id AND cursor < r.cursor
                         ORDER BY cursor DESC LIMIT 1) c`,
    [named.map((r) => r.room_id), named.map((r) => r.messageId), named.map((r) => r.cursor)],
  );
  return countAgents(found.rows.map((r) => r.agent_id));
}
