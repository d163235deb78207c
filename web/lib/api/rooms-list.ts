// GET /api/rooms: every room with its message count, last activity and agents present
// (shape: shared/contract/rooms.ts).
import { queryOptions } from '@tanstack/react-query';
import { RoomList } from '@shared/contract/rooms';
import { getJson } from './http';

export const roomsQuery = queryOptions({
  queryKey: ['rooms'],
  queryFn: ({ signal }) => getJson('/api/rooms', RoomList, { signal }).then((r) => r.rooms),
  refetchInterval: 15_000,
});
