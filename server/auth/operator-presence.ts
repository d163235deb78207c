// Which operators are on which console page, live (decisions-server.md §56):
// each open page sends a heartbeat every HEARTBEAT_MS; a session not heard from for EXPIRES_MS on
// a page has left it. Kept in this process's memory only: presence is a courtesy, lost on restart,
// and never a lock. Bounded per session (PLACES_PER_SESSION pages) and in all (MAX_ENTRIES).
import type { Clock } from '../clock';
import type { OperatorRole } from '../store/store';

export const HEARTBEAT_MS = 15_000;
export const EXPIRES_MS = 40_000;
/** Pages one session may be on at once (tabs); a heartbeat from one more forgets its oldest. */
export const PLACES_PER_SESSION = 8;
/** All heartbeats held; past it the oldest is forgotten first. */
export const MAX_ENTRIES = 20_000;

export interface PresentOperator {
  readonly did: string;
  readonly name: string | null;
  readonly role: OperatorRole;
  readonly seenAt: number;
}

interface Entry extends PresentOperator {
  readonly session: string;
  readonly where: string;
}

export class OperatorPresence {
  readonly #clock: Clock;
  /** where → session → entry. */
  readonly #pages = new Map<string, Map<string, Entry>>();
  /** session → its pages, oldest heartbeat first (a Map keeps insertion order; a beat re-inserts). */
  readonly #sessions = new Map<string, Map<string, Entry>>();
  /** Every heartbeat, oldest first: expired ones are always at the front, so dropping them is cheap. */
  readonly #all = new Map<string, Entry>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Records that `session` (a session token's hash) of operator `who` is on `where` now. */
  beat(session: string, where: string, who: Omit<PresentOperator, 'seenAt'>): void {
    const entry: Entry = { ...who, session, where, seenAt: this.#clock.now() };
    this.#forget(session, where);
    this.#dropExpired();
    let places = this.#sessions.get(session);
    while (places && places.size >= PLACES_PER_SESSION) this.#forget(session, places.keys().next().value!);
    while (this.#all.size >= MAX_ENTRIES) {
      const oldest = this.#all.values().next().value!;
      this.#forget(oldest.session, oldest.where);
    }
    places = this.#sessions.get(session);
    if (!places) this.#sessions.set(session, (places = new Map()));
    places.set(where, entry);
    let page = this.#pages.get(where);
    if (!page) this.#pages.set(where, (page = new Map()));
    page.set(session, entry);
    this.#all.set(key(session, where), entry);
  }

  /**
   * The operators on `where` now, one row per operator (several tabs are one person, their latest
   * heartbeat counts), most recently seen first, then by did.
   */
  list(where: string): PresentOperator[] {
    const cutoff = this.#clock.now() - EXPIRES_MS;
    const byDid = new Map<string, PresentOperator>();
    for (const entry of this.#pages.get(where)?.values() ?? []) {
      if (entry.seenAt <= cutoff) continue;
      const seen = byDid.get(entry.did);
      if (!seen || seen.seenAt < entry.seenAt) {
        const { did, name, role, seenAt } = entry;
        byDid.set(did, { did, name, role, seenAt });
      }
    }
    return [...byDid.values()].sort((a, b) => b.seenAt - a.seenAt || (a.did < b.did ? -1 : a.did > b.did ? 1 : 0));
  }

  /** Heartbeats held, expired ones included until the next beat (for tests of the bounds). */
  get size(): number {
    return this.#all.size;
  }

  #dropExpired(): void {
    const cutoff = this.#clock.now() - EXPIRES_MS;
    for (const entry of this.#all.values()) {
      if (entry.seenAt > cutoff) return;
      this.#forget(entry.session, entry.where);
    }
  }

  #forget(session: string, where: string): void {
    const places = this.#sessions.get(session);
    if (!places?.delete(where)) return;
    if (places.size === 0) this.#sessions.delete(session);
    const page = this.#pages.get(where);
    page?.delete(session);
    if (page?.size === 0) this.#pages.delete(where);
    this.#all.delete(key(session, where));
  }
}

const key = (session: string, where: string): string => `${session} ${where}`;
