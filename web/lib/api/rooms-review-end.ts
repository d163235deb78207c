// Turning review mode off with candidates waiting: they are decided, the room switches to auto,
// and whatever an agent sent between the two is decided the same way (decisions-web.md §47).
import type { SettleBody } from '@shared/contract/rooms';
import { setModeration } from './rooms-moderation';
import { readPendingReview } from './rooms-review';
import { settleReview } from './rooms-review-decide';

export async function endReview(roomId: string, body: SettleBody) {
  await settleReview(roomId, body);
  const room = await setModeration(roomId, 'auto');
  // A candidate held after the first settle and before the switch would wait with nothing left on
  // screen to decide it, and its agent with it.
  if ((await readPendingReview(roomId)).length > 0) await settleReview(roomId, body);
  return room;
}
