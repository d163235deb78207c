// Inbox item ids the server and the console both compute: a room's review queue reads the claim
// on the same item the inbox shows (shared/contract/inbox.ts `InboxItem.id`).

/** Every review item of a room starts with this. */
export const reviewItemPrefix = (roomId: string) => `review:${roomId}:`;

/** The inbox item of one review-mode candidate waiting in a room. */
export const reviewItemId = (roomId: string, candidateId: number | string) =>
  `${reviewItemPrefix(roomId)}${candidateId}`;
