// GET /api/scheduling/threads/{threadId}: one thread's read model (state, participants,
// suggestion, log); the contract checks its keys, the rest is shared/oacop's
// SchedulingThreadView. Polled while open, so answers, receipts and errors arrive live.
import { queryOptions } from '@tanstack/react-query';
import { SchedulingThreadAnswer } from '@shared/contract/console';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import { getJson } from './http';

/** How often an open thread is read again (ms). */
export const THREAD_POLL_MS = 1_000;

export const schedulingThreadQuery = (threadId: string) =>
  queryOptions({
    queryKey: ['oacop', 'thread', threadId],
    queryFn: async ({ signal }) =>
      (await getJson(`/api/scheduling/threads/${encodeURIComponent(threadId)}`, SchedulingThreadAnswer, { signal }))
        .thread as unknown as SchedulingThreadView,
    refetchInterval: THREAD_POLL_MS,
  });
