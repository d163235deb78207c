// GET /api/agora/threads/:id: one thread and every envelope in it, in relay order, expired
// ones included (GET /events stops serving an envelope after its meta.ttl; the record keeps it).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';
import { ThreadView } from './agora-threads';

export const ThreadEvent = z.object({
  seq: z.number(),
  cursor: z.string(),
  /** Milliseconds since the epoch, when the relay accepted it. */
  receivedAt: z.number(),
  /** The envelope exactly as stored; unknown until the browser has checked its signature. */
  envelope: z.unknown(),
});
export type ThreadEvent = z.infer<typeof ThreadEvent>;

const ThreadDetail = z.object({ thread: ThreadView, events: z.array(ThreadEvent) });
export type ThreadDetail = z.infer<typeof ThreadDetail>;

export const threadQuery = (threadId: string) =>
  queryOptions({
    queryKey: ['agora', 'thread', threadId],
    queryFn: ({ signal }) => getJson(`/api/agora/threads/${encodeURIComponent(threadId)}`, ThreadDetail, { signal }),
  });
