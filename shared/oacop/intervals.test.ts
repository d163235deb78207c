import { describe, expect, it } from 'vitest';
import {
  clipIntervals,
  contains,
  freeSlotsFromBusy,
  mergeIntervals,
  overlaps,
  parseSlot,
  parseSlots,
  restrictToWindow,
  subtractIntervals,
  toSlot,
} from './intervals';

const i = (start: number, end: number) => ({ start, end });

describe('intervals', () => {
  it('parses and writes slots at the edges', () => {
    const slot = { start: '2025-12-10T09:00:00Z', end: '2025-12-10T12:00:00Z' };
    const interval = parseSlot(slot);
    expect(interval).toEqual(i(Date.UTC(2025, 11, 10, 9), Date.UTC(2025, 11, 10, 12)));
    expect(toSlot(interval!)).toEqual(slot);
  });

  it('refuses empty, inverted and non-UTC slots', () => {
    expect(parseSlot({ start: '2025-12-10T09:00:00Z', end: '2025-12-10T09:00:00Z' })).toBeUndefined();
    expect(parseSlot({ start: '2025-12-10T10:00:00Z', end: '2025-12-10T09:00:00Z' })).toBeUndefined();
    expect(parseSlot({ start: '2025-12-10T09:00:00+01:00', end: '2025-12-10T12:00:00Z' })).toBeUndefined();
    expect(parseSlots([{ start: 'x', end: 'y' }], 'busy slot')).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE', message: expect.stringContaining('busy slot 0'), details: { index: 0 } },
    });
  });

  it('merges overlapping and touching intervals, in order', () => {
    expect(mergeIntervals([i(10, 20), i(0, 5), i(5, 8), i(15, 18), i(30, 40)])).toEqual([
      i(0, 8),
      i(10, 20),
      i(30, 40),
    ]);
    expect(mergeIntervals([])).toEqual([]);
  });

  it('clips to a window and subtracts busy time', () => {
    expect(clipIntervals([i(0, 10), i(20, 30), i(40, 50)], i(5, 45))).toEqual([i(5, 10), i(20, 30), i(40, 45)]);
    expect(subtractIntervals(i(0, 100), [i(10, 20), i(15, 30), i(90, 120), i(-5, 2)])).toEqual([i(2, 10), i(30, 90)]);
    expect(subtractIntervals(i(0, 10), [])).toEqual([i(0, 10)]);
    expect(subtractIntervals(i(0, 10), [i(0, 10)])).toEqual([]);
  });

  it('tells overlap and containment on half-open intervals', () => {
    expect(overlaps(i(0, 10), i(10, 20))).toBe(false);
    expect(overlaps(i(0, 11), i(10, 20))).toBe(true);
    expect(contains(i(0, 10), i(0, 10))).toBe(true);
    expect(contains(i(0, 10), i(5, 11))).toBe(false);
  });

  it('keeps only what lies in the request window (§3.2 privacy)', () => {
    const window = { start: '2025-12-10T08:00:00Z', end: '2025-12-10T18:00:00Z' };
    const slots = [
      { start: '2025-12-10T07:00:00Z', end: '2025-12-10T09:00:00Z' },
      { start: '2025-12-11T09:00:00Z', end: '2025-12-11T10:00:00Z' },
    ];
    expect(restrictToWindow(slots, window)).toEqual({
      ok: true,
      value: [{ start: '2025-12-10T08:00:00Z', end: '2025-12-10T09:00:00Z' }],
    });
    expect(restrictToWindow(slots, { start: window.end, end: window.start })).toMatchObject({ ok: false });
    expect(restrictToWindow([{ start: 'x', end: 'y' }], window)).toMatchObject({ ok: false });
  });

  it('derives free slots from busy ones', () => {
    const window = { start: '2025-12-10T08:00:00Z', end: '2025-12-10T18:00:00Z' };
    const busy = [{ start: '2025-12-10T09:00:00Z', end: '2025-12-10T12:00:00Z' }];
    expect(freeSlotsFromBusy(busy, window)).toEqual({
      ok: true,
      value: [
        { start: '2025-12-10T08:00:00Z', end: '2025-12-10T09:00:00Z' },
        { start: '2025-12-10T12:00:00Z', end: '2025-12-10T18:00:00Z' },
      ],
    });
    expect(freeSlotsFromBusy(busy, { start: 'x', end: 'y' })).toMatchObject({ ok: false });
    expect(freeSlotsFromBusy([{ start: 'x', end: 'y' }], window)).toMatchObject({ ok: false });
  });
});
