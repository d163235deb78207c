import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { andInto, createBitset, forEachSetBit, hasBit, setRange } from './bitset';

const setBits = (bits: Uint32Array) => {
  const found: number[] = [];
  forEachSetBit(bits, (i) => found.push(i));
  return found;
};

describe('bitset', () => {
  it('sets ranges across word boundaries', () => {
    const bits = createBitset(100);
    setRange(bits, 30, 70);
    expect(setBits(bits)).toEqual(Array.from({ length: 40 }, (_, k) => 30 + k));
    expect(hasBit(bits, 29)).toBe(false);
    expect(hasBit(bits, 31)).toBe(true);
    expect(hasBit(bits, 70)).toBe(false);
  });

  it('intersects in place', () => {
    const a = createBitset(64);
    const b = createBitset(64);
    setRange(a, 0, 40);
    setRange(b, 32, 64);
    andInto(a, b);
    expect(setBits(a)).toEqual(Array.from({ length: 8 }, (_, k) => 32 + k));
  });

  it('agrees with a set of numbers', () => {
    const ranges = fc.array(fc.tuple(fc.nat(200), fc.nat(50)), { maxLength: 10 });
    fc.assert(
      fc.property(ranges, (list) => {
        const bits = createBitset(260);
        const expected = new Set<number>();
        for (const [from, length] of list) {
          setRange(bits, from, from + length);
          for (let k = from; k < from + length; k++) expected.add(k);
        }
        expect(setBits(bits)).toEqual([...expected].sort((x, y) => x - y));
      }),
      { seed: 32, numRuns: 300 },
    );
  });
});
