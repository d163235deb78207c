// The demo's only source of randomness: a seeded PRNG, so a seed replays the same demo
// (randomness is injected). mulberry32 is small, fast and good enough for choosing demo content; it is
// not for anything secret.

/** A uniform number in [0, 1). */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  if (!Number.isFinite(seed)) throw new RangeError('seed must be a finite number');
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from a seed and labels (FNV-1a), so each agent gets its own stream. */
export function deriveSeed(seed: number, ...labels: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed >>> 0}/${labels.join('/')}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** An integer in [min, max], both included. */
export function randomInt(rng: Random, min: number, max: number): number {
  if (!(Number.isInteger(min) && Number.isInteger(max) && min <= max))
    throw new RangeError(`bad range [${min}, ${max}]`);
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Random, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('cannot pick from an empty list');
  return items[Math.floor(rng() * items.length)]!;
}

export const chance = (rng: Random, probability: number): boolean => rng() < probability;

/** Fisher–Yates on a copy. */
export function shuffled<T>(rng: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
