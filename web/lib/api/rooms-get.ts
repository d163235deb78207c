// GET /api/rooms/:id: one room (name and moderation mode).
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './http';
import { RoomAnswer } from '@shared/contract/rooms';

export const roomQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId],
    queryFn: ({ signal }) =>
      getJson(`/api/rooms/${encodeURIComponent(roomId)}`, RoomAnswer, { signal }).then((r) => r.room),
    retry: false,
  });
