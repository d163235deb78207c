// GET /api/rooms/:id: one room (name and moderation mode).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';
import { Room } from '@shared/contract/rooms';

const Answer = z.object({ room: Room });

export const roomQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}`, Answer, { signal }).then((r) => r.room),
    retry: false,
  });
