// GET /api/activity: what people and agents did, newest first, filtered by actor, kind, target
// and room, paged by keyset (`next` is the `before` of the following page; shapes:
// shared/contract/activity.ts). A room's audit page is this log filtered to its room.
import { infiniteQueryOptions } from '@tanstack/react-query';
import { ActivityPage, type ActivityEntry, type ActivityKind } from '@shared/contract/activity';
import { getJson } from './http';

export type { ActivityEntry, ActivityKind };

export interface ActivityFilter {
  readonly actor?: string | undefined;
  readonly kind?: ActivityKind | undefined;
  readonly target?: string | undefined;
  readonly room?: string | undefined;
}

export const ACTIVITY_PAGE = 50;

export function fetchActivityPage(
  filter: ActivityFilter,
  page: { before?: number | undefined; limit?: number },
  signal?: AbortSignal,
): Promise<ActivityPage> {
  const params = new URLSearchParams({ limit: String(page.limit ?? ACTIVITY_PAGE) });
  for (const key of ['actor', 'kind', 'target', 'room'] as const) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  if (page.before !== undefined) params.set('before', String(page.before));
  return getJson(`/api/activity?${params}`, ActivityPage, signal ? { signal } : undefined);
}

/** Every entry the filter matches, page by page, up to `max` (an export). */
export async function fetchAllActivity(filter: ActivityFilter, max = 20_000): Promise<ActivityEntry[]> {
  const all: ActivityEntry[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await fetchActivityPage(filter, { before, limit: 200 });
    all.push(...page.entries);
    if (page.next === null || all.length >= max) return all.slice(0, max);
    before = page.next;
  }
}

export const activityQuery = (filter: ActivityFilter) =>
  infiniteQueryOptions({
    queryKey: ['activity', filter.actor ?? '', filter.kind ?? '', filter.target ?? '', filter.room ?? ''],
    queryFn: ({ pageParam, signal }) =>
      fetchActivityPage(filter, pageParam === null ? {} : { before: pageParam }, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: 10_000,
  });
