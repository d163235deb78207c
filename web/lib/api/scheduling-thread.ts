// GET /api/scheduling/threads/{threadId}: one thread's read model (state, participants,
// suggestion, log). Polled while open, so answers, receipts and errors arrive live.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import { getJson } from './http';

const Answer = z.object({
  thread: z.looseObject({ threadId: z.string(), state: z.looseObject({ status: z.string(), revision: z.number() }), participants: z.array(z.looseObject({ did: z.string() })) }),
});

/** How often an open thread is read again (ms). */
export const THREAD_POLL_MS = 1_000;

export const schedulingThreadQuery = (threadId: string) =>
  queryOptions({
    queryKey: ['oacop', 'thread', threadId],
    queryFn: async ({ signal }) =>
      (await getJson(`/api/scheduling/threads/${encodeURIComponent(threadId)}`, Answer, { signal })).thread as unknown as SchedulingThreadView,
    refetchInterval: THREAD_POLL_MS,
  });
