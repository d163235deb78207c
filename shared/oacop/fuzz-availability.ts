// OACoP §6.1 fuzzy availability, against calendar scraping by unknown DIDs: at most 3 slots, their
// times moved by up to 5 minutes. Edges only ever move inward, so a fuzzed slot never claims time
// that is not free (docs/decisions-oacop.md, "Fuzzy availability"). All chance comes from the
// injected `random`, so a seeded source replays exactly.
import { fail, ok, type Result } from '../errors';
import { OacopLocalErrorCode } from './error-codes';
import { clipIntervals, mergeIntervals, parseSlot, parseSlots, toSlot, type Interval } from './intervals';
import type { Slot } from './messages';
import { MINUTE_MS } from './utc-time';

export interface FuzzOptions {
  /** Uniform in [0, 1); e.g. a seeded generator in tests. */
  readonly random: () => number;
  /** §6.1.1: "a maximum of 3 slots". Default 3. */
  readonly maxSlots?: number;
  /** §6.1.2: "+/- 5 min". Default 5. */
  readonly jitterMinutes?: number;
  /** Never shrink a slot below this, and drop slots already shorter. Default 1. */
  readonly minMinutes?: number;
  /** Cut to the request's time window first (§3.2). */
  readonly window?: Slot;
}

export function fuzzAvailability(slots: readonly Slot[], options: FuzzOptions): Result<Slot[]> {
  const maxSlots = options.maxSlots ?? 3;
  const jitter = options.jitterMinutes ?? 5;
  const minLength = (options.minMinutes ?? 1) * MINUTE_MS;
  if (!Number.isSafeInteger(maxSlots) || maxSlots < 0) throw new RangeError('maxSlots must be a non-negative integer');
  if (!Number.isSafeInteger(jitter) || jitter < 0) throw new RangeError('jitterMinutes must be a non-negative integer');
  if (!Number.isSafeInteger(minLength) || minLength < MINUTE_MS)
    throw new RangeError('minMinutes must be a positive integer');
  const draw = checkedRandom(options.random);

  const parsed = parseSlots(slots);
  if (!parsed.ok) return parsed;
  let free = mergeIntervals(parsed.value);
  if (options.window !== undefined) {
    const window = parseSlot(options.window);
    if (window === undefined)
      return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The time window is not a UTC slot with start before end.');
    free = clipIntervals(free, window);
  }
  free = free.filter((slot) => slot.end - slot.start >= minLength);

  // A random choice, not the earliest: which slots are free should not leak in order (§6.1.1).
  const chosen = pickWithoutReplacement(free, Math.min(maxSlots, free.length), draw);
  chosen.sort((a, b) => a.start - b.start);
  return ok(chosen.map((slot) => shrink(slot, jitter, minLength, draw)).map(toSlot));
}

/** Moves each edge inward by a whole number of minutes in [0, jitter], keeping `minLength`. */
function shrink(slot: Interval, jitter: number, minLength: number, draw: () => number): Interval {
  const spare = Math.floor((slot.end - slot.start - minLength) / MINUTE_MS);
  const fromStart = Math.min(wholeMinutes(draw, jitter), spare);
  const fromEnd = Math.min(wholeMinutes(draw, jitter), spare - fromStart);
  return { start: slot.start + fromStart * MINUTE_MS, end: slot.end - fromEnd * MINUTE_MS };
}

const wholeMinutes = (draw: () => number, max: number): number => Math.floor(draw() * (max + 1));

function pickWithoutReplacement<T>(items: readonly T[], count: number, draw: () => number): T[] {
  const pool = [...items];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(draw() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}

function checkedRandom(random: () => number): () => number {
  return () => {
    const value = random();
    if (!(value >= 0 && value < 1)) throw new RangeError(`random() must return a number in [0, 1), got ${value}`);
    return value;
  };
}
