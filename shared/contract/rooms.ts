// /api/rooms: the console's view of Agent Ops Rooms (AOR v0.1).
import { z } from 'zod';
import { isValidId, MAX_ID_LENGTH } from '../aor/ids';
import { operation } from './operation';
import { TEXT_LIMITS } from './text-limits';

export const Moderation = z.enum(['auto', 'review']);
export type Moderation = z.infer<typeof Moderation>;

const RoomId = z.string().refine(isValidId, `must be 1–${MAX_ID_LENGTH} characters without spaces, "/", "+" or "#"`);

export const CreateRoomBody = z.object({
  id: RoomId,
  name: z.string().trim().min(1).max(TEXT_LIMITS.line),
  moderation: Moderation.default('auto'),
});
export type CreateRoomBody = z.input<typeof CreateRoomBody>;

/** Retention as the store keeps it (decisions-server.md §25); `null` for the whole setting keeps everything. */
export const RetentionSetting = z
  .strictObject({
    maxMessages: z.int().min(1).max(1_000_000_000).nullable(),
    maxAgeDays: z.int().min(1).max(36_500).nullable(),
  })
  .refine(
    (r) => r.maxMessages !== null || r.maxAgeDays !== null,
    'give maxMessages or maxAgeDays; retention: null keeps everything',
  );
export const RoomSettingsBody = z
  .object({ moderation: Moderation.optional(), retention: RetentionSetting.nullable().optional() })
  .refine((b) => b.moderation !== undefined || b.retention !== undefined, 'give moderation, retention or both');
export type RoomSettingsBody = z.input<typeof RoomSettingsBody>;
export const RejectBody = z.object({ reason: z.string().trim().min(1).max(TEXT_LIMITS.reason) });

/**
 * Every candidate waiting in a room, decided at once (decisions-server.md §86): approved,
 * rejected with a reason, or released undecided back to their agents. At most SETTLE_MAX a call.
 */
export const SETTLE_MAX = 200;
export const SettleBody = z.discriminatedUnion('decision', [
  z.strictObject({ decision: z.literal('approve') }),
  z.strictObject({ decision: z.literal('reject'), reason: z.string().trim().min(1).max(TEXT_LIMITS.reason) }),
  z.strictObject({ decision: z.literal('release') }),
]);
export type SettleBody = z.input<typeof SettleBody>;
export const SettleAnswer = z.object({
  decision: z.enum(['approve', 'reject', 'release']),
  /** Items this call decided as asked. */
  decided: z.number(),
  /** Approvals the grant refused (they ended rejected with the grant's reason). */
  refused: z.number(),
  /** Items another facilitator or an ending grant decided first. */
  skipped: z.number(),
  /** Items still pending after this call (beyond SETTLE_MAX, or arrived meanwhile). */
  remaining: z.number(),
});
export type SettleAnswer = z.infer<typeof SettleAnswer>;

/** How much history the room keeps (PATCH /api/rooms/:id {retention}); absent: everything. */
export const Retention = z.object({ maxMessages: z.number().nullable(), maxAgeDays: z.number().nullable() });
export type Retention = z.infer<typeof Retention>;
export const Room = z.object({
  id: z.string(),
  name: z.string(),
  moderation: Moderation,
  createdAt: z.number(),
  retention: Retention.optional(),
});
export type Room = z.infer<typeof Room>;
export const RoomSummary = Room.extend({
  lastActivityAt: z.number().nullable(),
  messageCount: z.number(),
  agentsPresent: z.number(),
  agents: z.number(),
});
export type RoomSummary = z.infer<typeof RoomSummary>;

/** A stored message as the console shows it: the exact text, and the envelope when it parses. */
export const RoomMessage = z.object({
  cursor: z.number(),
  roomId: z.string(),
  topic: z.string(),
  topicKind: z.string(),
  topicAgentId: z.string().nullable(),
  messageId: z.string().nullable(),
  type: z.string().nullable(),
  fromId: z.string().nullable(),
  receivedAt: z.number(),
  raw: z.string(),
  envelope: z.unknown(),
});
export type RoomMessage = z.infer<typeof RoomMessage>;

export const ReviewItem = z.object({
  id: z.number(),
  roomId: z.string(),
  agentId: z.string(),
  taskId: z.string(),
  messageId: z.string(),
  submittedAt: z.number(),
  status: z.enum(['pending', 'approved', 'rejected', 'expired']),
  decidedBy: z.string().nullable(),
  /** Who decided, in words (decisions-server.md §55): their name, else a short did; null while pending. */
  decidedByName: z.string().nullable(),
  decidedAt: z.number().nullable(),
  reason: z.string().nullable(),
  raw: z.string(),
  envelope: z.unknown(),
});
export type ReviewItem = z.infer<typeof ReviewItem>;
/** An agent seen in the room (server/rooms/presence-tracker.ts); lastSeenAt in ms since the epoch. */
export const AgentPresence = z.object({
  roomId: z.string(),
  agentId: z.string(),
  description: z.string().nullable(),
  status: z.enum(['online', 'stale', 'offline']),
  lastSeenAt: z.number(),
  intervalMs: z.number(),
});
export type AgentPresence = z.infer<typeof AgentPresence>;

/** A mic grant with what it has spent; expiresAt in Unix seconds, as in the grant envelope. */
export const Grant = z.object({
  roomId: z.string(),
  agentId: z.string(),
  taskId: z.string(),
  maxMessages: z.number(),
  allowedTypes: z.array(z.string()),
  expiresAt: z.number(),
  spent: z.number(),
  grantedAt: z.number(),
  grantMessageId: z.string(),
  endedAt: z.number().nullable(),
  endReason: z.string().nullable(),
});
export type Grant = z.infer<typeof Grant>;

/** A facilitator action; `at` in ms since the epoch, `messageId` links it to the timeline. */
export const AuditEntry = z.object({
  id: z.number(),
  at: z.number(),
  actorDid: z.string(),
  action: z.string(),
  roomId: z.string().nullable(),
  messageId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const RoomList = z.object({ rooms: z.array(RoomSummary) });
export const RoomAnswer = z.object({ room: Room });
export const MessagePage = z.object({ messages: z.array(RoomMessage), hasMore: z.boolean() });
export type MessagePage = z.infer<typeof MessagePage>;
export const PresenceList = z.object({ agents: z.array(AgentPresence) });
export const GrantList = z.object({ grants: z.array(Grant) });
/** A task as the room's history has it (AOR §5.2): named by its goal on every screen (decisions-web.md §33). */
export const TaskGoal = z.object({
  taskId: z.string(),
  agentId: z.string().nullable(),
  goal: z.string(),
  assignedAt: z.number(),
});
export type TaskGoal = z.infer<typeof TaskGoal>;
export const TaskGoalList = z.object({ tasks: z.array(TaskGoal) });
export const ReviewList = z.object({ items: z.array(ReviewItem) });
export const ReviewDecision = z.object({ item: ReviewItem });
export const AuditPage = z.object({ entries: z.array(AuditEntry) });

const READ = { 401: 'UNAUTHORIZED', 404: 'ROOM_NOT_FOUND' };
const WRITE = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN, CSRF_REJECTED',
  404: 'ROOM_NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
};

export const ROOM_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/rooms',
    errors: 'coded',
    summary: 'Rooms with message count, last activity and agents present',
    responses: { 200: { description: 'Rooms', schema: RoomList } },
    refusals: { 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'post',
    path: '/api/rooms',
    errors: 'coded',
    summary: 'Create a room (facilitator)',
    body: CreateRoomBody,
    responses: { 201: { description: 'Created', schema: RoomAnswer } },
    refusals: { ...WRITE, 409: 'CONFLICT' },
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}',
    errors: 'coded',
    summary: 'One room',
    responses: { 200: { description: 'The room', schema: RoomAnswer } },
    refusals: READ,
  }),
  operation({
    method: 'patch',
    path: '/api/rooms/{id}',
    errors: 'coded',
    summary: 'Set moderation and retention (facilitator)',
    body: RoomSettingsBody,
    responses: { 200: { description: 'The room', schema: RoomAnswer } },
    refusals: WRITE,
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/messages',
    errors: 'coded',
    summary: 'History by cursor (after, before, limit, kinds, from)',
    responses: { 200: { description: 'A page', schema: MessagePage } },
    refusals: { ...READ, 400: 'INVALID_REQUEST' },
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/agents',
    errors: 'coded',
    summary: 'Agents present',
    responses: { 200: { description: 'Presence', schema: PresenceList } },
    refusals: READ,
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/grants',
    errors: 'coded',
    summary: 'Mic grants (active=true for live ones)',
    responses: { 200: { description: 'Grants', schema: GrantList } },
    refusals: READ,
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/tasks',
    errors: 'coded',
    summary: 'The goals of the room’s newest 500 tasks, newest first',
    responses: { 200: { description: 'Tasks', schema: TaskGoalList } },
    refusals: READ,
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/review',
    errors: 'coded',
    summary: 'The review queue (status=pending)',
    responses: { 200: { description: 'Items', schema: ReviewList } },
    refusals: READ,
  }),
  operation({
    method: 'post',
    path: '/api/rooms/{id}/review/{item}/approve',
    errors: 'coded',
    summary: 'Approve a held message (facilitator)',
    responses: { 200: { description: 'Decided', schema: ReviewDecision } },
    refusals: { ...WRITE, 409: 'CONFLICT' },
  }),
  operation({
    method: 'post',
    path: '/api/rooms/{id}/review/{item}/reject',
    errors: 'coded',
    summary: 'Reject a held message (facilitator)',
    body: RejectBody,
    responses: { 200: { description: 'Decided', schema: ReviewDecision } },
    refusals: { ...WRITE, 409: 'CONFLICT' },
  }),
  operation({
    method: 'post',
    path: '/api/rooms/{id}/review/settle',
    errors: 'coded',
    summary: 'Approve, reject or release every waiting candidate (facilitator), oldest first',
    body: SettleBody,
    responses: { 200: { description: 'What was decided', schema: SettleAnswer } },
    refusals: WRITE,
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/audit',
    errors: 'coded',
    summary: 'Audit entries, newest first (before, limit)',
    responses: { 200: { description: 'Entries', schema: AuditPage } },
    refusals: { ...READ, 400: 'INVALID_REQUEST' },
  }),
];
