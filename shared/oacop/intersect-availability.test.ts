import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { intersectAvailability, type AvailabilityQuery } from './intersect-availability';
import type { Slot } from './messages';
import { ALICE, BOB, CHARLIE, DAVE, seededRandom } from './test-support/fixtures';
import { formatUtc, parseUtc } from './utc-time';

const at = (hhmm: string, day = 10) => `2025-12-${day}T${hhmm}:00Z`;
const slot = (from: string, to: string, day = 10): Slot => ({ start: at(from, day), end: at(to, day) });
const window = slot('08:00', '18:00');

describe('intersectAvailability', () => {
  it('finds the starts where every required participant is free, best for optional ones first', () => {
    const result = unwrap(
      intersectAvailability({
        window,
        duration: 'PT30M',
        participants: new Map([
          [BOB, [slot('09:00', '12:00')]],
          [CHARLIE, [slot('10:00', '11:00')]],
          [DAVE, [slot('10:30', '11:30')]],
        ]),
        required: [BOB],
      }),
    );
    expect(result.nearestAlternatives).toEqual([]);
    expect(result.candidates.slice(0, 3)).toEqual([
      { ...slot('10:30', '11:00'), optionalFree: [CHARLIE, DAVE], missingRequired: [] },
      { ...slot('10:00', '10:30'), optionalFree: [CHARLIE], missingRequired: [] },
      { ...slot('10:15', '10:45'), optionalFree: [CHARLIE], missingRequired: [] },
    ]);
    // 09:00 … 11:30 every 15 minutes.
    expect(result.candidates).toHaveLength(11);
    expect(result.candidates.at(-1)).toEqual({ ...slot('11:30', '12:00'), optionalFree: [], missingRequired: [] });
  });

  it('joins touching slots, so a meeting may span them', () => {
    const result = unwrap(
      intersectAvailability({
        window,
        duration: 90,
        participants: new Map([[BOB, [slot('10:00', '11:00'), slot('09:00', '10:00')]]]),
        required: [BOB],
      }),
    );
    expect(result.candidates.map((c) => c.start)).toEqual([at('09:00'), at('09:15'), at('09:30')]);
  });

  it('puts starts on the UTC grid and keeps the meeting inside the window', () => {
    const result = unwrap(
      intersectAvailability({
        window: { start: '2025-12-10T08:07:00Z', end: '2025-12-10T09:20:00Z' },
        duration: 'PT30M',
        participants: new Map([[BOB, [window]]]),
        required: [BOB],
        granularityMinutes: 15,
      }),
    );
    expect(result.candidates.map((c) => c.start)).toEqual([at('08:15'), at('08:30'), at('08:45')]);
  });

  it('honours granularity and limit', () => {
    const result = unwrap(
      intersectAvailability({
        window,
        duration: 60,
        participants: new Map([[BOB, [window]]]),
        required: [BOB],
        granularityMinutes: 60,
        limit: 2,
      }),
    );
    expect(result.candidates.map((c) => c.start)).toEqual([at('08:00'), at('09:00')]);
  });

  it('offers the nearest alternatives when no slot suits every required participant', () => {
    const result = unwrap(
      intersectAvailability({
        window,
        duration: 'PT1H',
        participants: new Map([
          [ALICE, [slot('09:00', '10:00')]],
          [BOB, [slot('09:00', '10:00')]],
          [CHARLIE, [slot('14:00', '15:00')]],
          [DAVE, [slot('14:00', '15:00')]],
        ]),
        required: [ALICE, BOB, CHARLIE],
        granularityMinutes: 60,
      }),
    );
    expect(result.candidates).toEqual([]);
    expect(result.nearestAlternatives).toEqual([
      { ...slot('09:00', '10:00'), optionalFree: [], missingRequired: [CHARLIE] },
      { ...slot('14:00', '15:00'), optionalFree: [DAVE], missingRequired: [ALICE, BOB] },
    ]);
  });

  it('counts a required participant who never answered as never free', () => {
    const result = unwrap(
      intersectAvailability({
        window,
        duration: 30,
        participants: new Map([[BOB, [slot('09:00', '09:30')]]]),
        required: [BOB, CHARLIE],
      }),
    );
    expect(result.candidates).toEqual([]);
    expect(result.nearestAlternatives).toEqual([
      { ...slot('09:00', '09:30'), optionalFree: [], missingRequired: [CHARLIE] },
    ]);
  });

  it('with nobody required, ranks every start by who is free', () => {
    const result = unwrap(
      intersectAvailability({
        window: slot('09:00', '10:00'),
        duration: 30,
        participants: new Map([[BOB, [slot('09:30', '10:00')]]]),
        required: [],
      }),
    );
    expect(result.candidates.map((c) => [c.start, c.optionalFree.length])).toEqual([
      [at('09:30'), 1],
      [at('09:00'), 0],
      [at('09:15'), 0],
    ]);
  });

  it('returns nothing when no start fits the grid', () => {
    const result = unwrap(
      intersectAvailability({
        window: { start: '2025-12-10T08:01:00Z', end: '2025-12-10T08:20:00Z' },
        duration: 15,
        participants: new Map(),
        required: [BOB],
      }),
    );
    expect(result).toEqual({ candidates: [], nearestAlternatives: [] });
  });

  it.each([
    ['an inverted window', { window: { start: window.end, end: window.start } }, 'OACOP_INVALID_MESSAGE'],
    ['a bad duration', { duration: 'P1M' }, 'OACOP_INVALID_MESSAGE'],
    ['a duration longer than the window', { duration: 'P1D' }, 'OACOP_UNSUPPORTED_CONSTRAINT'],
    ['a bad slot', { participants: new Map([[BOB, [{ start: 'x', end: 'y' }]]]) }, 'OACOP_INVALID_MESSAGE'],
  ])('refuses %s', (_what, change, code) => {
    const query: AvailabilityQuery = { window, duration: 30, participants: new Map(), required: [], ...change };
    expect(intersectAvailability(query)).toMatchObject({ ok: false, error: { code } });
  });

  it('throws on programmer errors in the options', () => {
    const base: AvailabilityQuery = { window, duration: 30, participants: new Map(), required: [] };
    expect(() => intersectAvailability({ ...base, granularityMinutes: 0 })).toThrow(RangeError);
    expect(() => intersectAvailability({ ...base, limit: -1 })).toThrow(RangeError);
  });

  it('agrees with a brute-force search on random calendars', () => {
    const minutes = fc.integer({ min: 0, max: 24 * 60 });
    const freeSlot = fc
      .tuple(minutes, fc.integer({ min: 1, max: 300 }))
      .map(([from, length]) => ({ from, to: Math.min(from + length, 24 * 60 + 1) }));
    const calendars = fc.array(fc.array(freeSlot, { maxLength: 4 }), { minLength: 1, maxLength: 5 });
    const base = Date.UTC(2025, 11, 10);
    const iso = (m: number) => formatUtc(base + m * 60_000);
    fc.assert(
      fc.property(
        calendars,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 10, max: 90 }),
        (cals, requiredCount, duration) => {
          const dids = cals.map((_, k) => `did:key:p${k}`);
          const participants = new Map(
            cals.map((c, k) => [dids[k] as string, c.map((s) => ({ start: iso(s.from), end: iso(s.to) }))]),
          );
          const required = dids.slice(0, requiredCount);
          const result = unwrap(
            intersectAvailability({
              window: { start: iso(0), end: iso(24 * 60) },
              duration,
              participants,
              required,
              limit: Infinity,
            }),
          );
          // Reference: minute-by-minute freedom, starts every 15 minutes.
          const freeAt = (k: number, m: number) => (cals[k] ?? []).some((s) => s.from <= m && m < s.to);
          const freeFor = (k: number, start: number) =>
            Array.from({ length: duration }, (_, d) => start + d).every((m) => freeAt(k, m));
          const expected = [];
          for (let start = 0; start + duration <= 24 * 60; start += 15) {
            if (required.every((_, k) => freeFor(k, start))) expected.push(start);
          }
          const found = result.candidates.map((c) => ((parseUtc(c.start) ?? 0) - base) / 60_000).sort((a, b) => a - b);
          expect(found).toEqual(expected);
          for (const c of result.candidates) {
            const start = ((parseUtc(c.start) ?? 0) - base) / 60_000;
            expect(c.optionalFree).toEqual(dids.filter((_, k) => k >= requiredCount && freeFor(k, start)));
          }
        },
      ),
      { seed: 1545, numRuns: 100 },
    );
  });

  it("handles 50 participants over a month at 15 minutes (the benchmark's size)", () => {
    const random = seededRandom(50);
    const start = Date.UTC(2025, 11, 1);
    const participants = new Map<string, Slot[]>();
    for (let p = 0; p < 50; p++) {
      const slots: Slot[] = [];
      for (let day = 0; day < 30; day++) {
        const from = start + day * 86_400_000 + (8 + Math.floor(random() * 4)) * 3_600_000;
        slots.push({ start: formatUtc(from), end: formatUtc(from + (2 + Math.floor(random() * 6)) * 3_600_000) });
      }
      participants.set(`did:key:p${p}`, slots);
    }
    const result = unwrap(
      intersectAvailability({
        window: { start: formatUtc(start), end: formatUtc(start + 30 * 86_400_000) },
        duration: 'PT1H',
        participants,
        required: [...participants.keys()].slice(0, 3),
      }),
    );
    expect(result.candidates.length).toBe(50);
    const best = result.candidates[0]?.optionalFree.length ?? 0;
    expect(result.candidates.every((c) => c.optionalFree.length <= best)).toBe(true);
  });
});
