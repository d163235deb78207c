// /api/rooms: the console's view of Agent Ops Rooms (AOR v0.1).
import { z } from 'zod';
import { isValidId, MAX_ID_LENGTH } from '../aor/ids';
import { operation } from './operation';

export const Moderation = z.enum(['auto', 'review']);
export type Moderation = z.infer<typeof Moderation>;

const RoomId = z.string().refine(isValidId, `must be 1–${MAX_ID_LENGTH} characters without spaces, "/", "+" or "#"`);

export const CreateRoomBody = z.object({ id: RoomId, name: z.string().trim().min(1).max(200), moderation: Moderation.default('auto') });
export type CreateRoomBody = z.input<typeof CreateRoomBody>;

/** Retention as the store keeps it (decisions-server.md §25); `null` for the whole setting keeps everything. */
export const RetentionSetting = z
  .strictObject({ maxMessages: z.int().min(1).max(1_000_000_000).nullable(), maxAgeDays: z.int().min(1).max(36_500).nullable() })
  .refine((r) => r.maxMessages !== null || r.maxAgeDays !== null, 'give maxMessages or maxAgeDays; retention: null keeps everything');
export const RoomSettingsBody = z
  .object({ moderation: Moderation.optional(), retention: RetentionSetting.nullable().optional() })
  .refine((b) => b.moderation !== undefined || b.retention !== undefined, 'give moderation, retention or both');
export type RoomSettingsBody = z.input<typeof RoomSettingsBody>;
export const RejectBody = z.object({ reason: z.string().trim().min(1).max(500) });

/** How much history the room keeps (PATCH /api/rooms/:id {retention}); absent: everything. */
export const Retention = z.object({ maxMessages: z.number().nullable(), maxAgeDays: z.number().nullable() });
export type Retention = z.infer<typeof Retention>;
export const Room = z.object({ id: z.string(), name: z.string(), moderation: Moderation, createdAt: z.number(), retention: Retention.optional() });
export type Room = z.infer<typeof Room>;
export const RoomSummary = Room.extend({ lastActivityAt: z.number().nullable(), messageCount: z.number(), agentsPresent: z.number(), agents: z.number() });
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
  decidedAt: z.number().nullable(),
  reason: z.string().nullable(),
  raw: z.string(),
  envelope: z.unknown(),
});
export type ReviewItem = z.infer<typeof ReviewItem>;
const Loose = z.record(z.string(), z.unknown());

const READ = { 401: 'UNAUTHORIZED', 404: 'ROOM_NOT_FOUND' };
const WRITE = { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN, CSRF_REJECTED', 404: 'ROOM_NOT_FOUND', 413: 'PAYLOAD_TOO_LARGE' };

export const ROOM_OPERATIONS = [
  operation({ method: 'get', path: '/api/rooms', errors: 'coded', summary: 'Rooms with message count, last activity and agents present', responses: { 200: { description: 'Rooms', schema: z.object({ rooms: z.array(RoomSummary) }) } }, refusals: { 401: 'UNAUTHORIZED' } }),
  operation({ method: 'post', path: '/api/rooms', errors: 'coded', summary: 'Create a room (facilitator)', body: CreateRoomBody, responses: { 201: { description: 'Created', schema: z.object({ room: Room }) } }, refusals: { ...WRITE, 409: 'CONFLICT' } }),
  operation({ method: 'get', path: '/api/rooms/{id}', errors: 'coded', summary: 'One room', responses: { 200: { description: 'The room', schema: z.object({ room: Room }) } }, refusals: READ }),
  operation({ method: 'patch', path: '/api/rooms/{id}', errors: 'coded', summary: 'Set moderation and retention (facilitator)', body: RoomSettingsBody, responses: { 200: { description: 'The room', schema: z.object({ room: Room }) } }, refusals: WRITE }),
  operation({ method: 'get', path: '/api/rooms/{id}/messages', errors: 'coded', summary: 'History by cursor (after, before, limit, kinds, from)', responses: { 200: { description: 'A page', schema: z.object({ messages: z.array(RoomMessage), hasMore: z.boolean() }) } }, refusals: { ...READ, 400: 'INVALID_REQUEST' } }),
  operation({ method: 'get', path: '/api/rooms/{id}/agents', errors: 'coded', summary: 'Agents present', responses: { 200: { description: 'Presence', schema: z.object({ agents: z.array(Loose) }) } }, refusals: READ }),
  operation({ method: 'get', path: '/api/rooms/{id}/grants', errors: 'coded', summary: 'Mic grants (active=true for live ones)', responses: { 200: { description: 'Grants', schema: z.object({ grants: z.array(Loose) }) } }, refusals: READ }),
  operation({ method: 'get', path: '/api/rooms/{id}/review', errors: 'coded', summary: 'The review queue (status=pending)', responses: { 200: { description: 'Items', schema: z.object({ items: z.array(ReviewItem) }) } }, refusals: READ }),
  operation({ method: 'post', path: '/api/rooms/{id}/review/{item}/approve', errors: 'coded', summary: 'Approve a held message (facilitator)', responses: { 200: { description: 'Decided', schema: z.object({ item: ReviewItem }) } }, refusals: { ...WRITE, 409: 'CONFLICT' } }),
  operation({ method: 'post', path: '/api/rooms/{id}/review/{item}/reject', errors: 'coded', summary: 'Reject a held message (facilitator)', body: RejectBody, responses: { 200: { description: 'Decided', schema: z.object({ item: ReviewItem }) } }, refusals: { ...WRITE, 409: 'CONFLICT' } }),
  operation({ method: 'get', path: '/api/rooms/{id}/audit', errors: 'coded', summary: 'Audit entries, newest first (before, limit)', responses: { 200: { description: 'Entries', schema: z.object({ entries: z.array(Loose) }) } }, refusals: { ...READ, 400: 'INVALID_REQUEST' } }),
];
