// GET /api/rooms/:id/review?status=pending: candidates waiting for a facilitator (review mode);
// shape: shared/contract/rooms.ts.
import { queryOptions } from '@tanstack/react-query';
import { ReviewList } from '@shared/contract/rooms';
import { getJson } from './http';

export type { ReviewItem } from '@shared/contract/rooms';

export const pendingReviewQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'review', 'pending'],
    // Review notices (switchboard/rooms/{r}/review) refresh it at once; this re-read heals a queue
    // whose notice was lost on the way (a reconnect, a busy worker) within seconds, not never.
    refetchInterval: 5_000,
    queryFn: ({ signal }) => readPendingReview(roomId, signal),
  });

/** The candidates waiting for a facilitator in the room, oldest first. */
export const readPendingReview = (roomId: string, signal?: AbortSignal) =>
  getJson(
    `/api/rooms/${encodeURIComponent(roomId)}/review?status=pending`,
    ReviewList,
    signal ? { signal } : undefined,
  ).then((r) => r.items);

/** Every item, decided or not: the queue shows the latest decisions so every facilitator sees them. */
export const allReviewQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'review', 'all'],
    queryFn: ({ signal }) =>
      getJson(`/api/rooms/${encodeURIComponent(roomId)}/review`, ReviewList, { signal }).then((r) => r.items),
  });
