// PATCH /api/rooms/:id {moderation}: switches a room between automatic and review moderation.
import { z } from 'zod';
import { getJson } from './http';
import { Room, type Moderation } from '@shared/contract/rooms';

const Answer = z.object({ room: Room });

export const setModeration = (roomId: string, moderation: Moderation) =>
  getJson(`/api/rooms/${encodeURIComponent(roomId)}`, Answer, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ moderation }),
  }).then((r) => r.room);
