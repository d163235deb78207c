// GET /api/agora/threads: Agora threads, most recently updated first (operator session).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { THREAD_STATUSES } from '@shared/agora/thread-state';
import { getJson } from './http';

/**
 * The thread as the relay's state machine left it. The state is read loosely: the console
 * shows it, the relay alone decides it (shared/agora/thread-state.ts has the full shape).
 */
export const ThreadView = z.object({
  id: z.string(),
  status: z.enum(THREAD_STATUSES),
  state: z.looseObject({
    status: z.enum(THREAD_STATUSES),
    client: z.string().optional(),
    addressedTo: z.string().optional(),
    requestedAt: z.number().optional(),
    offers: z.array(z.looseObject({ offerId: z.string(), agent: z.string(), validUntil: z.number().optional() })).optional(),
    accepted: z.looseObject({ offerId: z.string(), agent: z.string() }).optional(),
    ended: z.looseObject({ type: z.string(), phase: z.string().optional(), code: z.string().optional(), by: z.string().optional() }).optional(),
  }),
  version: z.number(),
  openedAt: z.number(),
  updatedAt: z.number(),
  deadlineAt: z.number().nullable(),
  /** What may come next (shared/agora expectedMessages). */
  expected: z.array(z.string()),
});
export type ThreadView = z.infer<typeof ThreadView>;

export interface ThreadListFilter {
  readonly party?: string;
  readonly status?: ThreadView['status'];
}

export const threadsQuery = (filter: ThreadListFilter = {}) =>
  queryOptions({
    queryKey: ['agora', 'threads', filter],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: '200' });
      if (filter.party) params.set('party', filter.party);
      if (filter.status) params.set('status', filter.status);
      return getJson(`/api/agora/threads?${params}`, z.object({ threads: z.array(ThreadView) }), { signal }).then((r) => r.threads);
    },
    refetchInterval: 5_000,
  });
