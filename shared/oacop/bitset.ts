// Fixed-size bit sets over 32-bit words: the availability grid's representation, so intersecting
// 50 calendars over a month is a few thousand word operations (intersect-availability.ts).

export type Bitset = Uint32Array;

export const createBitset = (size: number): Bitset => new Uint32Array((size + 31) >>> 5);

/** Sets bits `from` (inclusive) to `to` (exclusive). */
export function setRange(bits: Bitset, from: number, to: number): void {
  for (let i = from; i < to;) {
    const word = i >>> 5;
    const offset = i & 31;
    const span = Math.min(32 - offset, to - i);
    const mask = span === 32 ? 0xffffffff : ((1 << span) - 1) << offset;
    bits[word] = ((bits[word] ?? 0) | mask) >>> 0;
    i += span;
  }
}

/** `target &= other`, in place. */
export function andInto(target: Bitset, other: Bitset): void {
  for (let w = 0; w < target.length; w++) target[w] = ((target[w] ?? 0) & (other[w] ?? 0)) >>> 0;
}

export const hasBit = (bits: Bitset, i: number): boolean => (((bits[i >>> 5] ?? 0) >>> (i & 31)) & 1) === 1;

/** Calls `visit` with the index of every set bit, in increasing order. */
export function forEachSetBit(bits: Bitset, visit: (index: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] ?? 0;
    while (word !== 0) {
      const low = word & -word;
      visit((w << 5) + 31 - Math.clz32(low));
      word = (word ^ low) >>> 0;
    }
  }
}
