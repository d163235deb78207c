// GET /api/rooms/:id/messages: a page of stored history, ascending by cursor, with hasMore
// (shape: shared/contract/rooms.ts).
import { MessagePage, type RoomMessage } from '@shared/contract/rooms';
import { getJson } from './http';

/** A stored message; receivedAt in ms since the epoch, when the server received it. */
export type StoredMessage = RoomMessage;

export interface MessagePageQuery {
  readonly after?: number;
  readonly before?: number;
  readonly limit?: number;
  readonly topicKinds?: readonly string[];
}

export function fetchMessages(roomId: string, query: MessagePageQuery, signal?: AbortSignal): Promise<MessagePage> {
  const params = new URLSearchParams();
  if (query.after !== undefined) params.set('after', String(query.after));
  if (query.before !== undefined) params.set('before', String(query.before));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.topicKinds?.length) params.set('topic', query.topicKinds.join(','));
  return getJson(
    `/api/rooms/${encodeURIComponent(roomId)}/messages?${params}`,
    MessagePage,
    signal ? { signal } : undefined,
  );
}
