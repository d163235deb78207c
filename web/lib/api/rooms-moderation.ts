// PATCH /api/rooms/:id {moderation}: switches a room between automatic and review moderation.
import { getJson } from './http';
import { RoomAnswer, type Moderation } from '@shared/contract/rooms';

export const setModeration = (roomId: string, moderation: Moderation) =>
  getJson(`/api/rooms/${encodeURIComponent(roomId)}`, RoomAnswer, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ moderation }),
  }).then((r) => r.room);
