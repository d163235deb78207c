// Rooms, messages, grants, review items and audit entries as rows, and their mapping to the
// contract's records (store.ts). Both engines use these column names and return these types
// (BIGINT as a number on PostgreSQL: pg-pool.ts; BLOB and BYTEA as a Buffer), so each mapping
// is written once for both.
import { activityKind } from '@shared/contract/activity';
import type {
  ActivityRecord,
  AuditEntry,
  GrantRecord,
  HistoryRetention,
  ModerationMode,
  ReviewItem,
  Room,
  StoredRoomMessage,
  TopicKind,
} from '../store';

export interface RoomRow {
  id: string;
  name: string;
  moderation: ModerationMode;
  created_at: number;
  message_count: number;
  last_activity_at: number | null;
  history_max_messages: number | null;
  history_max_age_days: number | null;
}

export interface MessageRow {
  cursor: number;
  room_id: string;
  topic: string;
  topic_kind: TopicKind;
  topic_agent_id: string | null;
  message_id: string | null;
  type: string | null;
  from_id: string | null;
  payload: Buffer;
  received_at: number;
}

export interface GrantRow {
  room_id: string;
  agent_id: string;
  task_id: string;
  max_messages: number;
  allowed_types: string;
  expires_at: number;
  spent: number;
  granted_at: number;
  grant_message_id: string;
  ended_at: number | null;
  end_reason: string | null;
}

export interface ReviewRow {
  id: number;
  room_id: string;
  agent_id: string;
  task_id: string;
  message_id: string;
  payload: Buffer;
  submitted_at: number;
  status: ReviewItem['status'];
  decided_by: string | null;
  decided_at: number | null;
  reason: string | null;
}

export interface AuditRow {
  id: number;
  at: number;
  actor_did: string;
  action: string;
  room_id: string | null;
  message_id: string | null;
  details: string;
  kind?: string | null;
  target?: string | null;
}

// Views, not copies: callers get plain Uint8Arrays over the bytes either driver returned.
export const bytes = (buffer: Buffer): Uint8Array =>
  new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
export const bufferOf = (data: Uint8Array): Buffer => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

export const toRoom = (row: RoomRow): Room => {
  const room: Room = { id: row.id, name: row.name, moderation: row.moderation, createdAt: row.created_at };
  if (row.history_max_messages === null && row.history_max_age_days === null) return room;
  return { ...room, retention: { maxMessages: row.history_max_messages, maxAgeDays: row.history_max_age_days } };
};

/** How many of a room's oldest messages one retention statement deletes at most (decisions-server.md §25). */
export const RETENTION_BATCH = 5_000;

/** A sweep's answer: the rooms' own retention, plus the rejects swept in each room, by room id. */
export function mergeSwept(
  swept: readonly { roomId: string; deleted: number }[],
  rejects: ReadonlyMap<string, number>,
): { roomId: string; deleted: number }[] {
  const all = new Map(swept.map((s) => [s.roomId, s.deleted] as const));
  for (const [roomId, n] of rejects) all.set(roomId, (all.get(roomId) ?? 0) + n);
  return [...all]
    .map(([roomId, deleted]) => ({ roomId, deleted }))
    .sort((a, b) => (a.roomId < b.roomId ? -1 : a.roomId > b.roomId ? 1 : 0));
}

/**
 * The oldest receive time a room with `retention` keeps at `now`; undefined without an age limit.
 * A message received exactly that long ago is kept.
 */
export const retentionCutoff = (retention: HistoryRetention, now: number): number | undefined =>
  retention.maxAgeDays === null ? undefined : now - retention.maxAgeDays * 86_400_000;

export const toMessage = (row: MessageRow): StoredRoomMessage => ({
  cursor: row.cursor,
  roomId: row.room_id,
  topic: row.topic,
  topicKind: row.topic_kind,
  topicAgentId: row.topic_agent_id,
  messageId: row.message_id,
  type: row.type,
  fromId: row.from_id,
  payload: bytes(row.payload),
  receivedAt: row.received_at,
});

export const toGrant = (row: GrantRow): GrantRecord => ({
  roomId: row.room_id,
  agentId: row.agent_id,
  taskId: row.task_id,
  maxMessages: row.max_messages,
  allowedTypes: JSON.parse(row.allowed_types) as string[],
  expiresAt: row.expires_at,
  spent: row.spent,
  grantedAt: row.granted_at,
  grantMessageId: row.grant_message_id,
  endedAt: row.ended_at,
  endReason: row.end_reason,
});

export const toReview = (row: ReviewRow): ReviewItem => ({
  id: row.id,
  roomId: row.room_id,
  agentId: row.agent_id,
  taskId: row.task_id,
  messageId: row.message_id,
  payload: bytes(row.payload),
  submittedAt: row.submitted_at,
  status: row.status,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at,
  reason: row.reason,
});

export const toAudit = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actorDid: row.actor_did,
  action: row.action,
  roomId: row.room_id,
  messageId: row.message_id,
  details: JSON.parse(row.details) as Record<string, unknown>,
});

export const toActivity = (row: AuditRow): ActivityRecord => ({
  ...toAudit(row),
  kind: activityKind(row.action),
  target: row.target ?? null,
});
