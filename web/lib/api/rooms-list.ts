// GET /api/rooms: every room with its message count, last activity and agents present.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

export const Moderation = z.enum(['auto', 'review']);
export type Moderation = z.infer<typeof Moderation>;

/** How much history the room keeps (PATCH /api/rooms/:id {retention}); absent: everything. */
export const Retention = z.object({ maxMessages: z.number().nullable(), maxAgeDays: z.number().nullable() });
export type Retention = z.infer<typeof Retention>;

export const Room = z.object({ id: z.string(), name: z.string(), moderation: Moderation, createdAt: z.number(), retention: Retention.optional() });
export type Room = z.infer<typeof Room>;

export const RoomSummary = Room.extend({
  /** Milliseconds since the epoch, or null for a room nobody spoke in yet. */
  lastActivityAt: z.number().nullable(),
  messageCount: z.number(),
  agentsPresent: z.number(),
  agents: z.number(),
});
export type RoomSummary = z.infer<typeof RoomSummary>;

const RoomList = z.object({ rooms: z.array(RoomSummary) });

export const roomsQuery = queryOptions({
  queryKey: ['rooms'],
  queryFn: ({ signal }) => getJson('/api/rooms', RoomList, { signal }).then((r) => r.rooms),
  refetchInterval: 15_000,
});
