// A room's audit log: the activity log (GET /api/activity) filtered to the room, newest first;
// the last id of a page is the `before` of the next (shapes: shared/contract/activity.ts).
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ActivityEntry } from '@shared/contract/activity';
import { fetchActivityPage } from './activity';

export type AuditEntry = ActivityEntry;

export const AUDIT_PAGE = 50;

export function fetchAuditPage(
  roomId: string,
  query: { before?: number; limit?: number },
  signal?: AbortSignal,
): Promise<AuditEntry[]> {
  return fetchActivityPage(
    { room: roomId },
    {
      limit: Math.min(query.limit ?? AUDIT_PAGE, 200),
      ...(query.before !== undefined ? { before: query.before } : {}),
    },
    signal,
  ).then((page) => page.entries);
}

export const roomAuditQuery = (roomId: string) =>
  infiniteQueryOptions({
    queryKey: ['rooms', roomId, 'audit'],
    queryFn: ({ pageParam, signal }) => fetchAuditPage(roomId, pageParam === null ? {} : { before: pageParam }, signal),
    initialPageParam: null as number | null,
    // A short page is the last one.
    getNextPageParam: (last) => (last.length < AUDIT_PAGE ? undefined : (last.at(-1)?.id ?? undefined)),
  });
