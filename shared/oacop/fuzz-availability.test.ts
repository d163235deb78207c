import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { fuzzAvailability } from './fuzz-availability';
import { contains, mergeIntervals, parseSlot } from './intervals';
import type { Slot } from './messages';
import { seededRandom } from './test-support/fixtures';
import { formatUtc } from './utc-time';

const day = Date.UTC(2025, 11, 10);
const hour = (h: number, m = 0) => day + h * 3_600_000 + m * 60_000;
const slot = (from: number, to: number): Slot => ({ start: formatUtc(from), end: formatUtc(to) });
const twenty = Array.from({ length: 20 }, (_, k) => slot(hour(8) + k * 2 * 3_600_000, hour(9) + k * 2 * 3_600_000));

describe('fuzzAvailability (OACoP §6.1)', () => {
  it('returns at most 3 slots even if 20 are free, in time order', () => {
    const fuzzed = unwrap(fuzzAvailability(twenty, { random: seededRandom(1) }));
    expect(fuzzed).toHaveLength(3);
    const starts = fuzzed.map((s) => s.start);
    expect([...starts].sort()).toEqual(starts);
  });

  it('is the same for the same random source and differs for another', () => {
    const a = fuzzAvailability(twenty, { random: seededRandom(7) });
    expect(fuzzAvailability(twenty, { random: seededRandom(7) })).toEqual(a);
    expect(fuzzAvailability(twenty, { random: seededRandom(8) })).not.toEqual(a);
  });

  it('moves each edge inward by whole minutes, at most the jitter', () => {
    // random() = 0.99 always: the last slots are picked and both edges move the full 5 minutes.
    const fuzzed = unwrap(fuzzAvailability([slot(hour(9), hour(10))], { random: () => 0.99 }));
    expect(fuzzed).toEqual([slot(hour(9, 5), hour(9, 55))]);
    expect(unwrap(fuzzAvailability([slot(hour(9), hour(10))], { random: () => 0 }))).toEqual([slot(hour(9), hour(10))]);
  });

  it('never claims time that is not free and never gets shorter than the minimum', () => {
    const slots = fc.array(fc.tuple(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 120 })), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        slots,
        fc.integer(),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 30 }),
        (list, seed, jitter, minMinutes) => {
          const input = list.map(([from, length]) => slot(hour(0, from), hour(0, from + length)));
          const free = mergeIntervals(input.map((s) => parseSlot(s)!));
          const fuzzed = unwrap(
            fuzzAvailability(input, { random: seededRandom(seed), jitterMinutes: jitter, minMinutes }),
          );
          expect(fuzzed.length).toBeLessThanOrEqual(3);
          for (const s of fuzzed) {
            const interval = parseSlot(s)!;
            const original = free.find((f) => contains(f, interval));
            expect(original).toBeDefined();
            expect(interval.start - original!.start).toBeLessThanOrEqual(jitter * 60_000);
            expect(original!.end - interval.end).toBeLessThanOrEqual(jitter * 60_000);
            expect(interval.end - interval.start).toBeGreaterThanOrEqual(minMinutes * 60_000);
          }
        },
      ),
      { seed: 61, numRuns: 300 },
    );
  });

  it('drops slots shorter than the minimum and shrinks short ones less', () => {
    const fuzzed = unwrap(
      fuzzAvailability([slot(hour(9), hour(9, 10)), slot(hour(11), hour(11, 20))], {
        random: () => 0.99,
        minMinutes: 15,
      }),
    );
    expect(fuzzed).toEqual([slot(hour(11, 5), hour(11, 20))]);
  });

  it('merges overlapping slots and cuts them to the window first', () => {
    const fuzzed = unwrap(
      fuzzAvailability([slot(hour(7), hour(9)), slot(hour(8), hour(10))], {
        random: () => 0,
        window: slot(hour(8), hour(18)),
        maxSlots: 5,
      }),
    );
    expect(fuzzed).toEqual([slot(hour(8), hour(10))]);
  });

  it('honours maxSlots and jitterMinutes', () => {
    expect(unwrap(fuzzAvailability(twenty, { random: seededRandom(3), maxSlots: 5 }))).toHaveLength(5);
    expect(unwrap(fuzzAvailability([slot(hour(9), hour(10))], { random: () => 0.99, jitterMinutes: 0 }))).toEqual([
      slot(hour(9), hour(10)),
    ]);
  });

  it('refuses bad slots, a bad window, bad options and a bad random source', () => {
    expect(fuzzAvailability([{ start: 'x', end: 'y' }], { random: Math.random })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
    expect(fuzzAvailability(twenty, { random: Math.random, window: { start: 'x', end: 'y' } })).toMatchObject({
      ok: false,
    });
    expect(() => fuzzAvailability(twenty, { random: Math.random, maxSlots: -1 })).toThrow(RangeError);
    expect(() => fuzzAvailability(twenty, { random: Math.random, jitterMinutes: 0.5 })).toThrow(RangeError);
    expect(() => fuzzAvailability(twenty, { random: Math.random, minMinutes: 0 })).toThrow(RangeError);
    expect(() => fuzzAvailability(twenty, { random: () => 1 })).toThrow(RangeError);
    expect(() => fuzzAvailability(twenty, { random: () => Number.NaN })).toThrow(RangeError);
  });
});
