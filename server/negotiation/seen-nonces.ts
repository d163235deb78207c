// The nonces of signed reads still inside their freshness window (RFC 9421 §7.2.2): a signature
// seen once is refused the second time, and forgotten once it would be refused as stale anyway.
// In memory and per process, bounded: past `max` live entries the oldest are dropped first,
// which only matters to a party flooding its own reads.

export class SeenNonces {
  readonly #seen = new Map<string, number>();

  constructor(private readonly max = 100_000) {}

  /** True the first time (`signer`, `nonce`) is seen before `staleAt` (seconds); false on a replay. */
  remember(signer: string, nonce: string, staleAt: number, now: number): boolean {
    this.#sweep(now);
    const key = `${signer} ${nonce}`;
    if (this.#seen.has(key)) return false;
    if (this.#seen.size >= this.max) this.#seen.delete(this.#seen.keys().next().value as string);
    this.#seen.set(key, staleAt);
    return true;
  }

  // Entries are inserted with roughly increasing staleAt, so the stale ones are at the front.
  #sweep(now: number): void {
    for (const [key, staleAt] of this.#seen) {
      if (staleAt >= now) return;
      this.#seen.delete(key);
    }
  }
}
