// GET /api/external/:serviceId/threads/:threadId: one thread bridged from an external relay,
// every envelope with the bridge's verdict (trusted, applied, reason), and the service it came
// from with its reachability. Read from this console's store, so a relay that is down
// still shows what was fetched before; the query keeps polling and the status says "down".
import { queryOptions } from '@tanstack/react-query';
import { BridgedThreadDetail } from '@shared/contract/console';
import { getJson } from './http';

export type { BridgedEvent, BridgedThreadDetail } from '@shared/contract/console';

export const externalThreadQuery = (serviceId: string, threadId: string) =>
  queryOptions({
    queryKey: ['external', 'thread', serviceId, threadId],
    queryFn: ({ signal }) =>
      getJson(
        `/api/external/${encodeURIComponent(serviceId)}/threads/${encodeURIComponent(threadId)}`,
        BridgedThreadDetail,
        { signal },
      ),
    // The bridge long-polls the relay; this only re-reads what it stored (and the status).
    refetchInterval: 3_000,
  });
