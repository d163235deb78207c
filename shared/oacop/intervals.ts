// Slots are UTC ISO strings at the edges and half-open epoch-ms intervals inside (OACoP §2.4,
// docs/decisions-oacop.md, "UTC only"). These helpers convert and combine them.
import { fail, ok, type Result } from '../errors';
import { OacopLocalErrorCode } from './error-codes';
import type { Slot } from './messages';
import { formatUtc, parseUtc } from './utc-time';

/** `[start, end)` in epoch milliseconds, `start < end`. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

export function parseSlot(slot: Slot): Interval | undefined {
  const start = parseUtc(slot.start);
  const end = parseUtc(slot.end);
  return start !== undefined && end !== undefined && start < end ? { start, end } : undefined;
}

/** All slots as intervals, or `OACOP_INVALID_MESSAGE` naming the first bad one. */
export function parseSlots(slots: readonly Slot[], what = 'slot'): Result<Interval[]> {
  const intervals: Interval[] = [];
  for (const [index, slot] of slots.entries()) {
    const interval = parseSlot(slot);
    if (interval === undefined) {
      return fail(OacopLocalErrorCode.INVALID_MESSAGE, `${what} ${index} is not a UTC slot with start before end.`, {
        index,
        slot,
      });
    }
    intervals.push(interval);
  }
  return ok(intervals);
}

export const toSlot = (interval: Interval): Slot => ({
  start: formatUtc(interval.start),
  end: formatUtc(interval.end),
});

/** Sorted, with overlapping and touching intervals joined: free 9–10 and 10–11 is free 9–11. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Interval[] = [];
  for (const next of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && next.start <= last.end) {
      if (next.end > last.end) merged[merged.length - 1] = { start: last.start, end: next.end };
    } else merged.push(next);
  }
  return merged;
}

/** The parts of `intervals` inside `window`, merged. */
export function clipIntervals(intervals: readonly Interval[], window: Interval): Interval[] {
  const clipped: Interval[] = [];
  for (const { start, end } of intervals) {
    const s = Math.max(start, window.start);
    const e = Math.min(end, window.end);
    if (s < e) clipped.push({ start: s, end: e });
  }
  return mergeIntervals(clipped);
}

/** `window` minus every busy interval: the free time an agent may offer. */
export function subtractIntervals(window: Interval, busy: readonly Interval[]): Interval[] {
  const free: Interval[] = [];
  let cursor = window.start;
  for (const b of clipIntervals(busy, window)) {
    if (b.start > cursor) free.push({ start: cursor, end: b.start });
    cursor = Math.max(cursor, b.end);
  }
  if (cursor < window.end) free.push({ start: cursor, end: window.end });
  return free;
}

export const overlaps = (a: Interval, b: Interval): boolean => a.start < b.end && b.start < a.end;
export const contains = (outer: Interval, inner: Interval): boolean =>
  outer.start <= inner.start && inner.end <= outer.end;

/** OACoP §3.2 privacy: only the parts of `slots` inside the requested `timeWindow` are sent. */
export function restrictToWindow(slots: readonly Slot[], window: Slot): Result<Slot[]> {
  const w = parseSlot(window);
  if (w === undefined)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The time window is not a UTC slot with start before end.');
  const parsed = parseSlots(slots);
  return parsed.ok ? ok(clipIntervals(parsed.value, w).map(toSlot)) : parsed;
}

/** Free slots inside `window` given busy ones: what a participant can offer (OACoP §1.1 "Is Available"). */
export function freeSlotsFromBusy(busy: readonly Slot[], window: Slot): Result<Slot[]> {
  const w = parseSlot(window);
  if (w === undefined)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The time window is not a UTC slot with start before end.');
  const parsed = parseSlots(busy, 'busy slot');
  return parsed.ok ? ok(subtractIntervals(w, parsed.value).map(toSlot)) : parsed;
}
