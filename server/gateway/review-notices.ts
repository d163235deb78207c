// What consoles are told about review mode: a review item's changes and a room's
// moderation mode, on a topic of the console's own beside the room's AOR topics, which only
// operators may read (acl.ts). They are not AOR messages, so history does not keep them: a
// console reads the queue itself from the API and takes these as the cue to read it again.
import type { ReviewItem } from '../store/store';

export const reviewTopicOf = (roomId: string) => `switchboard/rooms/${roomId}/review`;

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** Everything about an item but the candidate's bytes (agent-written: the API serves them). */
export function reviewNotice(item: ReviewItem): Uint8Array {
  const { payload: _bytes, ...summary } = item;
  return encode({ kind: 'review_item', item: summary });
}

export function moderationNotice(roomId: string, moderation: 'auto' | 'review'): Uint8Array {
  return encode({ kind: 'moderation', roomId, moderation });
}
