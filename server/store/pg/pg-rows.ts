// Row shapes as PostgreSQL returns them (BIGINT already a number, see pg-pool.ts) and their
// mapping to the contract's records. The column names are SQLite's, so the two engines read alike.
import type { ThreadState } from '@shared/agora/thread-state';
import type { DirectoryRecord, StoredRelayEnvelope, ThreadRecord } from '../relay-store';
import type { AuditEntry, GrantRecord, ModerationMode, ReviewItem, Room, StoredRoomMessage, TopicKind } from '../store';

export interface RoomRow {
  id: string;
  name: string;
  moderation: ModerationMode;
  created_at: number;
  message_count: number;
  last_activity_at: number | null;
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
}

export interface EnvelopeRow {
  seq: number;
  id: string;
  kind: 'event' | 'registration';
  digest: string;
  type: string;
  sender: string;
  recipient: string | null;
  thread_id: string;
  ts: number;
  received_at: number;
  expires_at: number;
  json: string;
}

export interface ThreadRow {
  thread_id: string;
  state: string;
  version: number;
  opened_at: number;
  updated_at: number;
  deadline_at: number | null;
}

export interface DirectoryRow {
  did: string;
  manifest: string;
  scope: 'public' | 'private';
  authorized_agents: string;
  aor_agent_id: string | null;
  endpoint: string | null;
  registered_at: number;
  envelope_id: string;
}

// Plain Uint8Array views over the Buffers pg returns, as SQLite's store hands out.
export const bytes = (buffer: Buffer): Uint8Array => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
export const bytea = (data: Uint8Array): Buffer => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

export const toRoom = (row: RoomRow): Room => ({ id: row.id, name: row.name, moderation: row.moderation, createdAt: row.created_at });

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

export const toEnvelope = (row: EnvelopeRow): StoredRelayEnvelope => ({
  seq: row.seq,
  id: row.id,
  kind: row.kind,
  digest: row.digest,
  type: row.type,
  sender: row.sender,
  recipient: row.recipient,
  threadId: row.thread_id,
  ts: row.ts,
  receivedAt: row.received_at,
  expiresAt: row.expires_at,
  json: row.json,
});

export const toThread = (row: ThreadRow): ThreadRecord => ({
  threadId: row.thread_id,
  state: JSON.parse(row.state) as ThreadState,
  version: row.version,
  openedAt: row.opened_at,
  updatedAt: row.updated_at,
  deadlineAt: row.deadline_at,
});

export const toDirectory = (row: DirectoryRow): DirectoryRecord => ({
  did: row.did,
  manifest: JSON.parse(row.manifest) as Record<string, unknown>,
  scope: row.scope,
  authorizedAgents: JSON.parse(row.authorized_agents) as string[],
  aorAgentId: row.aor_agent_id,
  endpoint: row.endpoint,
  registeredAt: row.registered_at,
  envelopeId: row.envelope_id,
});
