// POST /api/rooms/:id/review/:item/approve and …/reject {reason}: decides a review item once.
import { z } from 'zod';
import { postJson } from './http';
import { ReviewItem } from './rooms-review';

const Answer = z.object({ item: ReviewItem });
const base = (roomId: string, itemId: number) => `/api/rooms/${encodeURIComponent(roomId)}/review/${itemId}`;

export const approveReviewItem = (roomId: string, itemId: number) => postJson(`${base(roomId, itemId)}/approve`, {}, Answer).then((r) => r.item);

export const rejectReviewItem = (roomId: string, itemId: number, reason: string) =>
  postJson(`${base(roomId, itemId)}/reject`, { reason }, Answer).then((r) => r.item);
