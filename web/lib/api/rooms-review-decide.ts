// POST /api/rooms/:id/review/:item/approve and …/reject {reason}: decides a review item once.
import { ReviewDecision } from '@shared/contract/rooms';
import { postJson } from './http';

const base = (roomId: string, itemId: number) => `/api/rooms/${encodeURIComponent(roomId)}/review/${itemId}`;

export const approveReviewItem = (roomId: string, itemId: number) =>
  postJson(`${base(roomId, itemId)}/approve`, {}, ReviewDecision).then((r) => r.item);

export const rejectReviewItem = (roomId: string, itemId: number, reason: string) =>
  postJson(`${base(roomId, itemId)}/reject`, { reason }, ReviewDecision).then((r) => r.item);
