// The candidates a room has recently admitted, by agent and envelope id, so that one arriving again
// is not decided twice (decisions-server.md §30). The embedded gateway stores a candidate with its
// decision before the broker acknowledges it; a crash between that commit and the PUBACK makes
// the agent's client send the same PUBLISH again after it reconnects, and deciding it again would
// publish it twice and spend the budget twice. Seeded at start from the newest stored candidates
// (Gateway.recover), which is where such a retry finds its original.
import { hash } from 'node:crypto';
import type { StoredRoomMessage } from '../store/store';

/** Per room; the oldest are forgotten first. A retry comes within seconds, not 10,000 messages. */
export const RECENT_PER_ROOM = 10_000;

export type Seen = 'new' | 'same' | 'different';

/** A decision as handed to the broker: the approved copy on `public`, or a reject on `control`. */
export interface HandedOver {
  readonly topic: string;
  readonly payload: Uint8Array;
}

const digest = (bytes: Uint8Array) => hash('sha256', bytes, 'base64');
const keyOf = (agentId: string, messageId: string) => `${agentId}\u0000${messageId}`;

/**
 * One room's admitted candidates, forgetting the oldest past `capacity`. A Map alone would find
 * its oldest key with `keys().next()`, which in V8 steps over every entry deleted before it: with
 * a room at its bound that cost 8.8 µs per candidate, more than deciding it. A queue of admissions
 * finds it at once; one a `forget` made stale is skipped when its turn comes.
 */
class RoomMemory {
  readonly hashes = new Map<string, { readonly hash: string; readonly seq: number }>();
  #order: { readonly key: string; readonly seq: number }[] = [];
  #head = 0;
  #seq = 0;

  constructor(private readonly capacity: number) {}

  /** Remembers a key not held yet; returns the key it forgot to make room, if any. */
  add(key: string, hash: string): string | undefined {
    const seq = this.#seq++;
    this.hashes.set(key, { hash, seq });
    this.#order.push({ key, seq });
    if (this.hashes.size <= this.capacity) return undefined;
    for (;;) {
      const oldest = this.#order[this.#head++]!;
      if (this.hashes.get(oldest.key)?.seq !== oldest.seq) continue; // forgotten, or admitted again since
      this.hashes.delete(oldest.key);
      this.#compact();
      return oldest.key;
    }
  }

  #compact(): void {
    if (this.#head < 1024 || this.#head * 2 < this.#order.length) return;
    this.#order = this.#order.slice(this.#head);
    this.#head = 0;
  }
}

export class RecentCandidates {
  readonly #rooms = new Map<string, RoomMemory>();
  /**
   * Decisions to hand over again when their candidate comes again (decisions-server.md §35):
   * those recovery found, and those whose hand-over failed. Forgotten with their candidate.
   */
  readonly #toHandOverAgain = new Map<string, Map<string, HandedOver>>();

  /** `perRoom`: how many candidates each room remembers (tests make it small). */
  constructor(private readonly perRoom = RECENT_PER_ROOM) {}

  /** Remembers the candidate and says whether its id was seen before, with the same bytes or not. */
  admit(roomId: string, agentId: string, messageId: string, bytes: Uint8Array): Seen {
    let room = this.#rooms.get(roomId);
    if (!room) this.#rooms.set(roomId, (room = new RoomMemory(this.perRoom)));
    const key = keyOf(agentId, messageId);
    const known = room.hashes.get(key);
    const hash = digest(bytes);
    if (known !== undefined) return known.hash === hash ? 'same' : 'different';
    const forgotten = room.add(key, hash);
    if (forgotten !== undefined) this.#toHandOverAgain.get(roomId)?.delete(forgotten);
    return 'new';
  }

  /** Keeps an admitted candidate's decision, to hand over again if the candidate comes again. */
  keepDecision(roomId: string, agentId: string, messageId: string, decision: HandedOver): void {
    const key = keyOf(agentId, messageId);
    if (!this.#rooms.get(roomId)?.hashes.has(key)) return;
    let room = this.#toHandOverAgain.get(roomId);
    if (!room) this.#toHandOverAgain.set(roomId, (room = new Map()));
    room.set(key, decision);
  }

  /** The decision kept for a candidate, once: it is forgotten as it is taken. */
  takeDecision(roomId: string, agentId: string, messageId: string): HandedOver | undefined {
    const room = this.#toHandOverAgain.get(roomId);
    const key = keyOf(agentId, messageId);
    const decision = room?.get(key);
    room?.delete(key);
    return decision;
  }

  /**
   * Seeds a room with what recovery read (Gateway.recover): the stored candidates, given newest
   * first and remembered oldest first so that the newest are the last forgotten, each with the
   * decision stored for it, if any, by the candidate's id.
   */
  rememberStored(
    roomId: string,
    newestFirst: readonly StoredRoomMessage[],
    decisions: ReadonlyMap<string, StoredRoomMessage>,
  ): void {
    for (const m of [...newestFirst].reverse()) {
      this.admit(roomId, m.topicAgentId!, m.messageId!, m.payload);
      const decision = decisions.get(m.messageId!);
      // An approved copy carries the candidate's bytes, so its sender is the candidate's agent.
      if (decision && (decision.topicKind !== 'public' || decision.fromId === m.topicAgentId)) {
        this.keepDecision(roomId, m.topicAgentId!, m.messageId!, { topic: decision.topic, payload: decision.payload });
      }
    }
  }

  /** Forgets a candidate that could not be stored, so its retry is decided. */
  forget(roomId: string, agentId: string, messageId: string): void {
    const key = keyOf(agentId, messageId);
    this.#rooms.get(roomId)?.hashes.delete(key);
    this.#toHandOverAgain.get(roomId)?.delete(key);
  }
}
