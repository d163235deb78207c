// POST /api/rooms {id, name, moderation}: facilitators create rooms.
import { postJson } from './http';
import { RoomAnswer, type Moderation } from '@shared/contract/rooms';

export interface NewRoom {
  readonly id: string;
  readonly name: string;
  readonly moderation: Moderation;
}

export const createRoom = (room: NewRoom) => postJson('/api/rooms', room, RoomAnswer).then((r) => r.room);
