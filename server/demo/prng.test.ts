// The demo's seeded randomness: same seed, same stream; published mulberry32 outputs.
import { describe, expect, it } from 'vitest';
import { deriveSeed, mulberry32, pick, randomInt, shuffled } from './prng';

describe('mulberry32', () => {
  it('replays the same stream for the same seed, a different one for another (decision "determinism")', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('matches the reference implementation for seed 1', () => {
    // Reference: the widely copied JavaScript original (bryc's "PRNGs" collection), verbatim but typed.
    const ref = (a: number) => () => {
      let t = (a += 0x6d2b79f5);
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const r = ref(1);
    const m = mulberry32(1);
    for (let i = 0; i < 100; i++) expect(m()).toBe(r());
  });

  it('derives distinct, stable seeds per label', () => {
    expect(deriveSeed(7, 'agent.researcher')).toBe(deriveSeed(7, 'agent.researcher'));
    expect(deriveSeed(7, 'agent.researcher')).not.toBe(deriveSeed(7, 'agent.analyst'));
  });

  it('helpers stay in range and keep every item', () => {
    const rng = mulberry32(9);
    for (let i = 0; i < 200; i++) {
      const n = randomInt(rng, 3, 5);
      expect(n >= 3 && n <= 5).toBe(true);
    }
    expect(['a', 'b', 'c']).toContain(pick(rng, ['a', 'b', 'c']));
    expect(shuffled(rng, [1, 2, 3, 4]).sort()).toEqual([1, 2, 3, 4]);
    expect(() => randomInt(rng, 5, 3)).toThrow(RangeError);
  });
});
