// GET /api/rooms/:id/review?status=pending: candidates waiting for a facilitator (review mode).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

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

const Answer = z.object({ items: z.array(ReviewItem) });

export const pendingReviewQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'review', 'pending'],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}/review?status=pending`, Answer, { signal }).then((r) => r.items),
  });

/** Every item, decided or not: the queue shows the latest decisions so every facilitator sees them. */
export const allReviewQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'review', 'all'],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}/review`, Answer, { signal }).then((r) => r.items),
  });
