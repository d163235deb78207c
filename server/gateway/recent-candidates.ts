// The candidates a room has recently admitted, by agent and envelope id, so that one arriving again
// is not decided twice (decisions-server.md §30). The embedded gateway stores a candidate with its
// decision before the broker acknowledges it; a crash between that commit and the PUBACK makes
// the agent's client send the same PUBLISH again after it reconnects, and deciding it again would
// publish it twice and spend the budget twice. Seeded at start from the newest stored candidates
// (Gateway.recover), which is where such a retry finds its original.
import { createHash } from 'node:crypto';
import type { StoredRoomMessage } from '../store/store';

/** Per room; the oldest are forgotten first. A retry comes within seconds, not 10,000 messages. */
export const RECENT_PER_ROOM = 10_000;

export type Seen = 'new' | 'same' | 'different';

/** A decision as handed to the broker: the approved copy on `public`, or a reject on `control`. */
export interface HandedOver {
  readonly topic: string;
  readonly payload: Uint8Array;
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

export class RecentCandidates {
  readonly #rooms = new Map<string, Map<string, string>>();
  /**
   * Decisions to hand over again when their candidate comes again (decisions-server.md §35):
   * those recovery found, and those whose hand-over failed. Forgotten with their candidate.
   */
  readonly #toHandOverAgain = new Map<string, Map<string, HandedOver>>();

  /** Remembers the candidate and says whether its id was seen before, with the same bytes or not. */
  admit(roomId: string, agentId: string, messageId: string, bytes: Uint8Array): Seen {
    let room = this.#rooms.get(roomId);
    if (!room) this.#rooms.set(roomId, (room = new Map()));
    const key = `${agentId}\u0000${messageId}`;
    const known = room.get(key);
    const hash = digest(bytes);
    if (known !== undefined) return known === hash ? 'same' : 'different';
    room.set(key, hash);
    if (room.size > RECENT_PER_ROOM) {
      const oldest = room.keys().next().value as string;
      room.delete(oldest);
      this.#toHandOverAgain.get(roomId)?.delete(oldest);
    }
    return 'new';
  }

  /** Keeps an admitted candidate's decision, to hand over again if the candidate comes again. */
  keepDecision(roomId: string, agentId: string, messageId: string, decision: HandedOver): void {
    const key = `${agentId}\u0000${messageId}`;
    if (!this.#rooms.get(roomId)?.has(key)) return;
    let room = this.#toHandOverAgain.get(roomId);
    if (!room) this.#toHandOverAgain.set(roomId, (room = new Map()));
    room.set(key, decision);
  }

  /** The decision kept for a candidate, once: it is forgotten as it is taken. */
  takeDecision(roomId: string, agentId: string, messageId: string): HandedOver | undefined {
    const room = this.#toHandOverAgain.get(roomId);
    const key = `${agentId}\u0000${messageId}`;
    const decision = room?.get(key);
    room?.delete(key);
    return decision;
  }

  /**
   * Seeds a room with what recovery read (Gateway.recover): the stored candidates, given newest
   * first and remembered oldest first so that the newest are the last forgotten, each with the
   * decision stored for it, if any, by the candidate's id.
   */
  rememberStored(roomId: string, newestFirst: readonly StoredRoomMessage[], decisions: ReadonlyMap<string, StoredRoomMessage>): void {
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
    this.#rooms.get(roomId)?.delete(`${agentId}\u0000${messageId}`);
    this.#toHandOverAgain.get(roomId)?.delete(`${agentId}\u0000${messageId}`);
  }
}
