// GET /api/rooms/:id/grants?active=true: live mic grants with what each has spent.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

export const Grant = z.object({
  roomId: z.string(),
  agentId: z.string(),
  taskId: z.string(),
  maxMessages: z.number(),
  allowedTypes: z.array(z.string()),
  /** Unix seconds. */
  expiresAt: z.number(),
  spent: z.number(),
  grantedAt: z.number(),
  grantMessageId: z.string(),
  endedAt: z.number().nullable(),
  endReason: z.string().nullable(),
});
export type Grant = z.infer<typeof Grant>;

const Answer = z.object({ grants: z.array(Grant) });

export const activeGrantsQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'grants', 'active'],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}/grants?active=true`, Answer, { signal }).then((r) => r.grants),
  });

/** Every grant in the room, live and ended, for the grant history per task. */
export const allGrantsQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'grants', 'all'],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}/grants`, Answer, { signal }).then((r) => r.grants),
  });
