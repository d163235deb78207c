// GET /api/agora/threads/:id: one thread and every envelope in it, in relay order, expired
// ones included (GET /events stops serving an envelope after its meta.ttl; the record keeps it).
import { queryOptions } from '@tanstack/react-query';
import { AgoraThreadDetail } from '@shared/contract/console';
import { getJson } from './http';

export type { AgoraThreadEvent as ThreadEvent, AgoraThreadDetail as ThreadDetail } from '@shared/contract/console';

export const threadQuery = (threadId: string) =>
  queryOptions({
    queryKey: ['agora', 'thread', threadId],
    queryFn: ({ signal }) =>
      getJson(`/api/agora/threads/${encodeURIComponent(threadId)}`, AgoraThreadDetail, { signal }),
  });
