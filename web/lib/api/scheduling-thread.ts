// GET /api/scheduling/threads/{threadId}: one thread's read model (state, participants,
// suggestion, log), parsed with the contract's SchedulingThread. Polled while open, so answers,
// receipts and errors arrive live.
import { queryOptions } from '@tanstack/react-query';
import { SchedulingThreadAnswer } from '@shared/contract/console';
import { getJson } from './http';

/** How often an open thread is read again (ms). */
export const THREAD_POLL_MS = 1_000;

export const schedulingThreadQuery = (threadId: string) =>
  queryOptions({
    queryKey: ['oacop', 'thread', threadId],
    queryFn: async ({ signal }) =>
      (await getJson(`/api/scheduling/threads/${encodeURIComponent(threadId)}`, SchedulingThreadAnswer, { signal }))
        .thread,
    refetchInterval: THREAD_POLL_MS,
  });
