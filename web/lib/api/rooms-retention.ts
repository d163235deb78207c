// PATCH /api/rooms/:id {retention}: how much of a room's history the server keeps; null keeps everything.
import { z } from 'zod';
import { getJson } from './http';
import { Room, type Retention } from '@shared/contract/rooms';

const Answer = z.object({ room: Room });

export const setRetention = (roomId: string, retention: Retention | null) =>
  getJson(`/api/rooms/${encodeURIComponent(roomId)}`, Answer, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ retention }),
  }).then((r) => r.room);
