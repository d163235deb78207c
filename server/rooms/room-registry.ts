// Which rooms exist. Rooms are created by facilitators and never deleted, so a positive answer
// can be cached for good, even with several instances sharing one database.
import type { ModerationMode, Room, Store } from '../store/store';

export class RoomRegistry {
  readonly #known = new Set<string>();

  constructor(private readonly store: Store) {}

  async exists(roomId: string): Promise<boolean> {
    if (this.#known.has(roomId)) return true;
    const room = await this.store.rooms.getRoom(roomId);
    if (room) this.#known.add(roomId);
    return room !== undefined;
  }

  async create(room: { id: string; name: string; moderation: ModerationMode }): Promise<Room> {
    const created = await this.store.rooms.ensureRoom(room);
    this.#known.add(created.id);
    return created;
  }
}
