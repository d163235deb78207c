// GET /api/agora/threads: Agora threads, most recently updated first (operator session);
// shape: shared/contract/console.ts.
import { queryOptions } from '@tanstack/react-query';
import { AgoraThreadList, type AgoraThreadView } from '@shared/contract/console';
import { getJson } from './http';

export type { AgoraThreadView as ThreadView };

export interface ThreadListFilter {
  readonly party?: string;
  readonly status?: AgoraThreadView['status'];
}

export const threadsQuery = (filter: ThreadListFilter = {}) =>
  queryOptions({
    queryKey: ['agora', 'threads', filter],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: '200' });
      if (filter.party) params.set('party', filter.party);
      if (filter.status) params.set('status', filter.status);
      return getJson(`/api/agora/threads?${params}`, AgoraThreadList, { signal }).then((r) => r.threads);
    },
    refetchInterval: 5_000,
  });
