// Pausing the live tail without losing anything: the store
// keeps every message; a pause only remembers where the reader stopped. What came after that
// point is counted as "N new" and shown again on resume. Pure, so it is unit-tested.
import type { Timeline, TimelineEntry } from '@web/lib/mqtt/timeline-merge';

/** Where the reader paused: the last entry of the whole timeline then (null: it was empty). */
export interface PausePoint {
  readonly lastKey: string | null;
  /** The arrival number after that entry: the fallback if that entry was trimmed away. */
  readonly nextSeq: number;
}

export const pauseAt = (timeline: Timeline): PausePoint => ({
  lastKey: timeline.entries.at(-1)?.key ?? null,
  nextSeq: timeline.nextSeq,
});

/**
 * Splits the (filtered, in timeline order) entries into what the paused view shows and how many
 * wait behind it. Not paused: everything shows. Older history paged in while paused sorts
 * before the pause point, so it shows; anything after it waits.
 */
export function splitAtPause(
  timeline: Timeline,
  filtered: readonly TimelineEntry[],
  pause: PausePoint | null,
): { readonly visible: readonly TimelineEntry[]; readonly pending: number } {
  if (!pause) return { visible: filtered, pending: 0 };
  const boundary = pause.lastKey === null ? -1 : timeline.keys.get(pause.lastKey);
  const isAfter =
    boundary === undefined
      ? (e: TimelineEntry) => e.seq >= pause.nextSeq
      : (e: TimelineEntry) => (timeline.keys.get(e.key) ?? Number.POSITIVE_INFINITY) > boundary;
  // Filtered entries are in timeline order: binary search for the first one after the point.
  let lo = 0;
  let hi = filtered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(filtered[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return { visible: lo === filtered.length ? filtered : filtered.slice(0, lo), pending: filtered.length - lo };
}
