// The candidates a room has recently admitted, by agent and envelope id, so that one arriving again
// is not decided twice (decisions-server.md §30). The embedded gateway stores a candidate with its
// decision before the broker acknowledges it; a crash between that commit and the PUBACK makes
// the agent's client send the same PUBLISH again after it reconnects, and deciding it again would
// publish it twice and spend the budget twice. Seeded at start from the newest stored candidates
// (Gateway.recover), which is where such a retry finds its original.
import { createHash } from 'node:crypto';

/** Per room; the oldest are forgotten first. A retry comes within seconds, not 10,000 messages. */
export const RECENT_PER_ROOM = 10_000;

export type Seen = 'new' | 'same' | 'different';

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

export class RecentCandidates {
  readonly #rooms = new Map<string, Map<string, string>>();

  /** Remembers the candidate and says whether its id was seen before, with the same bytes or not. */
  admit(roomId: string, agentId: string, messageId: string, bytes: Uint8Array): Seen {
    let room = this.#rooms.get(roomId);
    if (!room) this.#rooms.set(roomId, (room = new Map()));
    const key = `${agentId}\u0000${messageId}`;
    const known = room.get(key);
    const hash = digest(bytes);
    if (known !== undefined) return known === hash ? 'same' : 'different';
    room.set(key, hash);
    if (room.size > RECENT_PER_ROOM) room.delete(room.keys().next().value as string);
    return 'new';
  }

  /** Forgets a candidate that could not be stored, so its retry is decided. */
  forget(roomId: string, agentId: string, messageId: string): void {
    this.#rooms.get(roomId)?.delete(`${agentId}\u0000${messageId}`);
  }
}
