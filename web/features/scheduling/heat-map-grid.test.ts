import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayRanges, heatMapGrid, inSlot, pickStep } from './heat-map-grid';

const window = { start: '2026-11-23T08:00:00Z', end: '2026-11-23T12:00:00Z' };

describe('heatMapGrid', () => {
  it('marks a cell free only when the offered slots cover it entirely, unknown before an answer, declined after a decline', () => {
    const grid = heatMapGrid(
      window,
      [
        { did: 'ada', offered: [{ start: '2026-11-23T09:00:00Z', end: '2026-11-23T10:30:00Z' }] },
        { did: 'bruno', offered: null },
        { did: 'chitra', offered: 'declined' },
      ],
      60,
    );
    expect(grid.columns).toHaveLength(4);
    expect(grid.rows[0]!.cells.map((c) => c.state)).toEqual(['busy', 'free', 'busy', 'busy']);
    expect(grid.rows[1]!.cells.every((c) => c.state === 'unknown')).toBe(true);
    expect(grid.rows[2]!.cells.every((c) => c.state === 'declined')).toBe(true);
    expect(grid.freeCount).toEqual([0, 1, 0, 0]);
  });

  it('joins adjacent offered slots and marks imported busy time on any overlap', () => {
    const grid = heatMapGrid(
      window,
      [
        {
          did: 'ada',
          offered: [
            { start: '2026-11-23T08:00:00Z', end: '2026-11-23T08:30:00Z' },
            { start: '2026-11-23T08:30:00Z', end: '2026-11-23T09:00:00Z' },
          ],
          importedBusy: [{ start: '2026-11-23T11:59:00Z', end: '2026-11-23T13:00:00Z' }],
        },
      ],
      60,
    );
    expect(grid.rows[0]!.cells[0]!.state).toBe('free');
    expect(grid.rows[0]!.cells.map((c) => c.importedBusy)).toEqual([false, false, false, true]);
  });

  it('keeps the grid to at most 96 columns and always covers the whole window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 14 * 24 * 4 }), (quarters) => {
        const start = Date.parse('2026-11-23T00:00:00Z');
        const end = start + quarters * 15 * 60_000;
        const grid = heatMapGrid({ start: new Date(start).toISOString(), end: new Date(end).toISOString() }, []);
        expect(grid.columns.length).toBeLessThanOrEqual(96);
        expect(grid.columns[0]!.start).toBe(start);
        expect(grid.columns.at(-1)!.end).toBe(end);
        expect(grid.stepMinutes).toBe(pickStep(end - start));
      }),
    );
  });

  it('outlines the columns inside a slot', () => {
    const col = { start: Date.parse('2026-11-23T09:00:00Z'), end: Date.parse('2026-11-23T09:30:00Z') };
    expect(inSlot(col, { start: '2026-11-23T09:00:00Z', end: '2026-11-23T10:00:00Z' })).toBe(true);
    expect(inSlot(col, { start: '2026-11-23T09:15:00Z', end: '2026-11-23T10:00:00Z' })).toBe(false);
    expect(inSlot(col, undefined)).toBe(false);
  });
});

describe('dayRanges', () => {
  it('cuts the columns by local day, in order, each range ending where the next begins', () => {
    const hour = 3_600_000;
    const columns = Array.from({ length: 6 }, (_, i) => ({ start: i * 12 * hour }));
    const dayOf = (at: number) => `day ${Math.floor(at / (24 * hour))}`;
    expect(dayRanges(columns, dayOf)).toEqual([
      { label: 'day 0', from: 0, to: 2 },
      { label: 'day 1', from: 2, to: 4 },
      { label: 'day 2', from: 4, to: 6 },
    ]);
    expect(dayRanges([], dayOf)).toEqual([]);
  });
});
