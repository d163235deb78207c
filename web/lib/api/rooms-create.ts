// POST /api/rooms {id, name, moderation}: facilitators create rooms.
import { z } from 'zod';
import { postJson } from './http';
import { Room, type Moderation } from '@shared/contract/rooms';

const Answer = z.object({ room: Room });

export interface NewRoom {
  readonly id: string;
  readonly name: string;
  readonly moderation: Moderation;
}

export const createRoom = (room: NewRoom) => postJson('/api/rooms', room, Answer).then((r) => r.room);
