// PATCH /api/rooms/:id {retention}: how much of a room's history the server keeps; null keeps everything.
import { getJson } from './http';
import { RoomAnswer, type Retention } from '@shared/contract/rooms';

export const setRetention = (roomId: string, retention: Retention | null) =>
  getJson(`/api/rooms/${encodeURIComponent(roomId)}`, RoomAnswer, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ retention }),
  }).then((r) => r.room);
