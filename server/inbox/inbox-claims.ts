// Soft claims: "I am deciding this", shown to the other facilitators, lapsing by themselves.
// In memory, per instance (decisions-server.md, "The inbox"): a claim is a courtesy between
// people looking at one console, not a lock, and it is gone within CLAIM_MS anyway.
import type { InboxClaim } from '@shared/contract/inbox';
import type { Clock } from '../clock';

/** How long a claim lasts unless its holder posts it again. */
export const CLAIM_MS = 30_000;

export class InboxClaims {
  readonly #claims = new Map<string, { claim: InboxClaim; timer: NodeJS.Timeout }>();

  constructor(
    private readonly clock: Clock,
    /** Told when an item's claim changes: taken, renewed, lapsed or dropped. */
    private readonly changed: (itemId: string) => void,
  ) {}

  /** The live claim on an item, if any. */
  get(itemId: string): InboxClaim | null {
    const held = this.#claims.get(itemId);
    return held && held.claim.until > this.clock.now() ? held.claim : null;
  }

  /**
   * Takes or renews the claim for `did`; while another operator's claim is live it stays theirs,
   * and that claim is the answer (a soft claim never takes over: it tells who is deciding).
   */
  claim(itemId: string, did: string, name: string): InboxClaim {
    const live = this.get(itemId);
    if (live && live.did !== did) return live;
    this.#drop(itemId);
    const claim = { did, name, until: this.clock.now() + CLAIM_MS };
    // The lapse is announced by a timer of its own; `get` never shows a lapsed claim meanwhile.
    const timer = setTimeout(() => {
      if (this.#claims.get(itemId)?.claim !== claim) return;
      this.#claims.delete(itemId);
      this.changed(itemId);
    }, CLAIM_MS);
    timer.unref();
    this.#claims.set(itemId, { claim, timer });
    this.changed(itemId);
    return claim;
  }

  /** Forgets an item's claim without telling (its item is gone). */
  forget(itemId: string): void {
    this.#drop(itemId);
  }

  close(): void {
    for (const id of [...this.#claims.keys()]) this.#drop(id);
  }

  #drop(itemId: string): void {
    const held = this.#claims.get(itemId);
    if (!held) return;
    clearTimeout(held.timer);
    this.#claims.delete(itemId);
  }
}
