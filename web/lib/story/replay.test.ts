import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, MAX_REPLAY_GAP_MS, parseSpeed, replayOffsets, shownAt } from './replay';

const at = (...times: number[]) => times.map((t) => ({ at: t }));

describe('story replay', () => {
  it('keeps the story’s rhythm, capping long quiet stretches', () => {
    expect(replayOffsets(at(1_000, 1_500, 3_500, 600_000))).toEqual([0, 500, 2_500, 2_500 + MAX_REPLAY_GAP_MS]);
    expect(replayOffsets([])).toEqual([]);
  });

  it('shows a line out of time order together with the one before it', () => {
    expect(replayOffsets(at(5_000, 4_000, 6_000))).toEqual([0, 0, 1_000]);
  });

  it('shows the lines whose time has come', () => {
    const offsets = [0, 500, 2_500];
    expect([-1, 0, 499, 500, 2_499, 2_500, 9_999].map((p) => shownAt(offsets, p))).toEqual([0, 1, 1, 2, 2, 3, 3]);
  });

  it('advances by wall time times the speed, and stops at the end', () => {
    expect(advance(1_000, 100, 10, 5_000)).toBe(2_000);
    expect(advance(4_900, 100, 10, 5_000)).toBe(5_000);
    expect(advance(1_000, -5, 2, 5_000)).toBe(1_000);
  });

  it('never hides a line once shown while playing forward, and ends with every line shown', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 60 }),
        (times, ticks) => {
          const offsets = replayOffsets(at(...times));
          const total = offsets.at(-1) ?? 0;
          let position = 0;
          let shown = shownAt(offsets, position);
          for (const tick of ticks) {
            position = advance(position, tick, 10, total);
            const next = shownAt(offsets, position);
            expect(next).toBeGreaterThanOrEqual(shown);
            shown = next;
          }
          expect(shownAt(offsets, total)).toBe(times.length);
        },
      ),
      { seed: 1010, numRuns: 200 },
    );
  });

  it('reads only the offered speeds from a URL', () => {
    expect([parseSpeed('10'), parseSpeed(5), parseSpeed('3'), parseSpeed(undefined), parseSpeed('x')]).toEqual([
      10, 5, 1, 1, 1,
    ]);
  });
});
