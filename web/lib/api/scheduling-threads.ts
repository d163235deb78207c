// GET /api/scheduling/threads (server/README.md "OACoP read models"): thread summaries, newest
// activity first; shape: shared/contract/console.ts.
import { queryOptions } from '@tanstack/react-query';
import { SchedulingThreadList } from '@shared/contract/console';
import { getJson } from './http';

export type { SchedulingThreadSummary as ThreadSummary } from '@shared/contract/console';

export const schedulingThreadsQuery = queryOptions({
  queryKey: ['oacop', 'threads'],
  queryFn: async ({ signal }) => (await getJson('/api/scheduling/threads', SchedulingThreadList, { signal })).threads,
  refetchInterval: 3_000,
});
