// GET /api/rooms/:id/grants?active=true: live mic grants with what each has spent
// (shape: shared/contract/rooms.ts).
import { queryOptions } from '@tanstack/react-query';
import { GrantList } from '@shared/contract/rooms';
import { getJson } from './http';

export type { Grant } from '@shared/contract/rooms';

export const activeGrantsQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'grants', 'active'],
    queryFn: ({ signal }) =>
      getJson(`/api/rooms/${encodeURIComponent(roomId)}/grants?active=true`, GrantList, { signal }).then(
        (r) => r.grants,
      ),
  });

/** Every grant in the room, live and ended, for the grant history per task. */
export const allGrantsQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'grants', 'all'],
    queryFn: ({ signal }) =>
      getJson(`/api/rooms/${encodeURIComponent(roomId)}/grants`, GrantList, { signal }).then((r) => r.grants),
  });
