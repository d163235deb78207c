// GET /api/rooms/:id/messages: a page of stored history, ascending by cursor, with hasMore.
import { z } from 'zod';
import { getJson } from './http';

export const StoredMessage = z.object({
  cursor: z.number(),
  roomId: z.string(),
  topic: z.string(),
  topicKind: z.string(),
  topicAgentId: z.string().nullable(),
  messageId: z.string().nullable(),
  type: z.string().nullable(),
  fromId: z.string().nullable(),
  /** Milliseconds since the epoch, when the server received it. */
  receivedAt: z.number(),
  raw: z.string(),
  envelope: z.unknown(),
});
export type StoredMessage = z.infer<typeof StoredMessage>;

const Page = z.object({ messages: z.array(StoredMessage), hasMore: z.boolean() });
export type MessagePage = z.infer<typeof Page>;

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
  return getJson(`/api/rooms/${encodeURIComponent(roomId)}/messages?${params}`, Page, signal ? { signal } : undefined);
}
