// GET /api/rooms/:id/audit?before=&limit=: facilitator actions in a room, newest first; the last
// id of a page is the `before` of the next (shape: shared/contract/rooms.ts).
import { infiniteQueryOptions } from '@tanstack/react-query';
import { AuditPage, type AuditEntry } from '@shared/contract/rooms';
import { getJson } from './http';

export type { AuditEntry };

export const AUDIT_PAGE = 50;

export function fetchAuditPage(
  roomId: string,
  query: { before?: number; limit?: number },
  signal?: AbortSignal,
): Promise<AuditEntry[]> {
  const params = new URLSearchParams({ limit: String(query.limit ?? AUDIT_PAGE) });
  if (query.before !== undefined) params.set('before', String(query.before));
  return getJson(
    `/api/rooms/${encodeURIComponent(roomId)}/audit?${params}`,
    AuditPage,
    signal ? { signal } : undefined,
  ).then((r) => r.entries);
}

export const roomAuditQuery = (roomId: string) =>
  infiniteQueryOptions({
    queryKey: ['rooms', roomId, 'audit'],
    queryFn: ({ pageParam, signal }) => fetchAuditPage(roomId, pageParam === null ? {} : { before: pageParam }, signal),
    initialPageParam: null as number | null,
    // A short page is the last one.
    getNextPageParam: (last) => (last.length < AUDIT_PAGE ? undefined : (last.at(-1)?.id ?? undefined)),
  });
