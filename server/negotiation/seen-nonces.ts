// The nonces of signed reads still inside their freshness window (RFC 9421 §7.2.2): a signature
// seen once is refused the second time, and forgotten once it would be refused as stale anyway.
// Bounded by time, never by count (decisions-server.md §78): an entry leaves only when its window
// closes, so no flood of other reads can push a captured signature's nonce out and let it replay.
// Only a party's verified read is remembered, and signed reads are rate limited per signer, so the
// set holds at most (parties × their rate × the window); `ceiling` is the backstop past which new
// reads are refused until entries age out, never a reason to forget one. In memory and per
// process: several instances each keep their own (docs/security.md).

export type Remembered =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'replayed' }
  | { readonly ok: false; readonly reason: 'full'; readonly retryAfterSeconds: number };

export class SeenNonces {
  readonly #seen = new Map<string, number>();

  constructor(private readonly ceiling = 100_000) {}

  get size(): number {
    return this.#seen.size;
  }

  /** `ok` the first time (`signer`, `nonce`) is seen before `staleAt` (seconds); a replay or a full set otherwise. */
  remember(signer: string, nonce: string, staleAt: number, now: number): Remembered {
    this.#sweep(now);
    const key = `${signer} ${nonce}`;
    if (this.#seen.has(key)) return { ok: false, reason: 'replayed' };
    if (this.#seen.size >= this.ceiling) {
      const oldest = this.#seen.values().next().value as number;
      return { ok: false, reason: 'full', retryAfterSeconds: Math.max(1, oldest - now + 1) };
    }
    this.#seen.set(key, staleAt);
    return { ok: true };
  }

  // Entries are inserted with roughly increasing staleAt (a signature's `created` is within the
  // clock skew of now), so the stale ones are at the front.
  #sweep(now: number): void {
    for (const [key, staleAt] of this.#seen) {
      if (staleAt >= now) return;
      this.#seen.delete(key);
    }
  }
}
