// The availability heat-map's grid: columns are equal steps across the thread's
// time window (UTC), rows are participants; a cell is free when the participant's offered slots
// cover it entirely, busy when they answered without covering it, unknown before they answer,
// and marked when an imported calendar (.ics) is busy at any point of it.
import type { Slot } from '@shared/oacop/messages';

export type CellState = 'free' | 'busy' | 'unknown' | 'declined';

export interface HeatMapRow {
  readonly did: string;
  /** Offered slots; `null` while there is no answer to the current proposal; `'declined'`. */
  readonly offered: readonly Slot[] | null | 'declined';
  /** Busy time from an imported calendar, if any. */
  readonly importedBusy?: readonly Slot[];
}

export interface HeatMapCell {
  readonly state: CellState;
  readonly importedBusy: boolean;
}

export interface HeatMapGrid {
  readonly stepMinutes: number;
  /** Column starts and ends, epoch ms. */
  readonly columns: readonly { readonly start: number; readonly end: number }[];
  readonly rows: readonly { readonly did: string; readonly cells: readonly HeatMapCell[] }[];
  /** How many rows are free in each column (the "heat"). */
  readonly freeCount: readonly number[];
}

const STEPS = [15, 30, 60, 120, 180, 360, 720, 1440];

/** The smallest step (minutes) that keeps the grid to at most `maxColumns` columns. */
export function pickStep(windowMs: number, maxColumns = 96): number {
  return STEPS.find((s) => windowMs / (s * 60_000) <= maxColumns) ?? 1440;
}

const toIntervals = (slots: readonly Slot[]) =>
  slots
    .map((s) => ({ start: Date.parse(s.start), end: Date.parse(s.end) }))
    .filter((i) => Number.isFinite(i.start) && Number.isFinite(i.end) && i.start < i.end)
    .sort((a, b) => a.start - b.start);

/** True when the union of `intervals` (sorted by start) covers [start, end). */
function covers(intervals: readonly { start: number; end: number }[], start: number, end: number): boolean {
  let reached = start;
  for (const i of intervals) {
    if (i.start > reached) break;
    if (i.end > reached) reached = i.end;
    if (reached >= end) return true;
  }
  return reached >= end;
}

const overlaps = (intervals: readonly { start: number; end: number }[], start: number, end: number) =>
  intervals.some((i) => i.start < end && start < i.end);

export function heatMapGrid(window: Slot, rows: readonly HeatMapRow[], stepMinutes?: number): HeatMapGrid {
  const from = Date.parse(window.start);
  const to = Date.parse(window.end);
  const step = stepMinutes ?? pickStep(to - from);
  const columns: { start: number; end: number }[] = [];
  for (let t = from; t < to; t += step * 60_000) columns.push({ start: t, end: Math.min(to, t + step * 60_000) });
  const grid = rows.map((row) => {
    const offered = row.offered === null || row.offered === 'declined' ? [] : toIntervals(row.offered);
    const busy = toIntervals(row.importedBusy ?? []);
    return {
      did: row.did,
      cells: columns.map((c): HeatMapCell => ({
        state:
          row.offered === null
            ? 'unknown'
            : row.offered === 'declined'
              ? 'declined'
              : covers(offered, c.start, c.end)
                ? 'free'
                : 'busy',
        importedBusy: overlaps(busy, c.start, c.end),
      })),
    };
  });
  const freeCount = columns.map((_, i) => grid.filter((r) => r.cells[i]!.state === 'free').length);
  return { stepMinutes: step, columns, rows: grid, freeCount };
}

/** Whether a column lies inside `slot` (to outline the suggested or confirmed slot). */
export const inSlot = (column: { start: number; end: number }, slot: Slot | undefined | null): boolean =>
  slot !== null && slot !== undefined && column.start >= Date.parse(slot.start) && column.end <= Date.parse(slot.end);

/** A run of columns on one local day (in `zone`): what a phone shows at a time. */
export interface DayRange {
  /** The day as the axis names it, e.g. "Sat 28 Nov". */
  readonly label: string;
  readonly from: number;
  /** Exclusive. */
  readonly to: number;
}

/** The grid's columns cut by local day in `dayOf`'s zone, in order. */
export function dayRanges(columns: readonly { readonly start: number }[], dayOf: (at: number) => string): DayRange[] {
  const days: DayRange[] = [];
  columns.forEach((c, i) => {
    const label = dayOf(c.start);
    const last = days.at(-1);
    if (last && last.label === label) days[days.length - 1] = { ...last, to: i + 1 };
    else days.push({ label, from: i, to: i + 1 });
  });
  return days;
}
