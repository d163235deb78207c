// POST /api/rooms/:id/review/:item/approve and …/reject {reason}: decides a review item once;
// …/review/settle decides every waiting one (decisions-server.md §86).
import { ReviewDecision, SettleAnswer, type SettleBody } from '@shared/contract/rooms';
import { postJson } from './http';

const base = (roomId: string, itemId: number) => `/api/rooms/${encodeURIComponent(roomId)}/review/${itemId}`;

export const approveReviewItem = (roomId: string, itemId: number) =>
  postJson(`${base(roomId, itemId)}/approve`, {}, ReviewDecision).then((r) => r.item);

export const rejectReviewItem = (roomId: string, itemId: number, reason: string) =>
  postJson(`${base(roomId, itemId)}/reject`, { reason }, ReviewDecision).then((r) => r.item);

/** POST /api/rooms/:id/review/settle: every waiting candidate approved, rejected or released at once. */
export const settleReview = (roomId: string, body: SettleBody) =>
  postJson(`/api/rooms/${encodeURIComponent(roomId)}/review/settle`, body, SettleAnswer);
