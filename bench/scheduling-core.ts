// The scheduling benchmark's workload and its three implementations (see bench/scheduling.ts),
// free of Node APIs so the same code runs in Node and, bundled, in Chromium.
import { intersectAvailability } from '../shared/oacop/intersect-availability';
import { mergeIntervals, parseSlots, toSlot, type Interval } from '../shared/oacop/intervals';
import type { Slot } from '../shared/oacop/messages';
// The demo's seeded PRNG is pure (no Node API), so the bundle for Chromium can take it too.
import { mulberry32 } from '../server/demo/prng';

const PARTICIPANTS = 50;
const REQUIRED = 10;
const STEP = 15 * 60_000;
const DURATION = 60 * 60_000;
const WINDOW_START = Date.UTC(2026, 2, 1);
const WINDOW_END = Date.UTC(2026, 2, 31);

/** Working days 08:00–18:00 in a zone offset of −3…+3 h, with 0–4 meetings a day carved out. */
function calendar(rng: () => number): Slot[] {
  const offset = Math.floor(rng() * 7 - 3) * 3_600_000;
  const free: Interval[] = [];
  for (let day = WINDOW_START; day < WINDOW_END; day += 86_400_000) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    let cursor = day + 8 * 3_600_000 - offset;
    const close = day + 18 * 3_600_000 - offset;
    const meetings = Math.floor(rng() * 5);
    for (let m = 0; m < meetings && cursor < close; m++) {
      const start = cursor + Math.floor(rng() * 8) * STEP;
      const end = start + (2 + Math.floor(rng() * 4)) * STEP;
      if (start > cursor) free.push({ start: cursor, end: Math.min(start, close) });
      cursor = end;
    }
    if (cursor < close) free.push({ start: cursor, end: close });
  }
  return free.filter((f) => f.start >= WINDOW_START && f.end <= WINDOW_END && f.end > f.start).map(toSlot);
}

const rng = mulberry32(20260301);
const dids = Array.from({ length: PARTICIPANTS }, (_, i) => `did:key:z6MkBench${i}`);
const participants = new Map(dids.map((did) => [did, calendar(rng)] as const));
const required = dids.slice(0, REQUIRED);
const window = {
  start: toSlot({ start: WINDOW_START, end: WINDOW_END }).start,
  end: toSlot({ start: WINDOW_START, end: WINDOW_END }).end,
};
const totalIntervals = [...participants.values()].reduce((n, s) => n + s.length, 0);

export interface Best {
  readonly start: number;
  readonly optional: number;
}

export function oacop(): Best | undefined {
  const result = intersectAvailability({ window, duration: 'PT60M', participants, required, limit: 1 });
  if (!result.ok) throw new Error(result.error.message);
  const best = result.value.candidates[0];
  return best && { start: Date.parse(best.start), optional: best.optionalFree.length };
}

const parse = (slots: readonly Slot[]): Interval[] => {
  const parsed = parseSlots(slots);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return mergeIntervals(parsed.value);
};

export function gridScan(): Best | undefined {
  const lists = dids.map((did) => parse(participants.get(did)!));
  let best: Best | undefined;
  const first = Math.ceil(WINDOW_START / STEP) * STEP;
  for (let start = first; start + DURATION <= WINDOW_END; start += STEP) {
    const end = start + DURATION;
    const free = (list: Interval[]) => list.some((f) => f.start <= start && end <= f.end);
    if (!lists.slice(0, REQUIRED).every(free)) continue;
    const optional = lists.slice(REQUIRED).filter(free).length;
    if (best === undefined || optional > best.optional) best = { start, optional };
  }
  return best;
}

function intersectLists(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i]!.start, b[j]!.start);
    const end = Math.min(a[i]!.end, b[j]!.end);
    if (start < end) out.push({ start, end });
    if (a[i]!.end < b[j]!.end) i++;
    else j++;
  }
  return out;
}

export function intervalLists(): Best | undefined {
  const lists = dids.map((did) => parse(participants.get(did)!));
  let common = lists[0]!;
  for (const list of lists.slice(1, REQUIRED)) common = intersectLists(common, list);
  let best: Best | undefined;
  for (const stretch of common) {
    for (let start = Math.ceil(stretch.start / STEP) * STEP; start + DURATION <= stretch.end; start += STEP) {
      const end = start + DURATION;
      let optional = 0;
      for (const list of lists.slice(REQUIRED)) {
        // Binary search for the last free interval starting at or before `start`.
        let lo = 0;
        let hi = list.length - 1;
        let found = -1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (list[mid]!.start <= start) {
            found = mid;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        if (found >= 0 && list[found]!.end >= end) optional++;
      }
      if (best === undefined || optional > best.optional) best = { start, optional };
    }
  }
  return best;
}

export const ROUNDS = 7;
export const ITERATIONS = 20;

function time(run: () => Best | undefined): number {
  const t0 = performance.now();
  for (let i = 0; i < ITERATIONS; i++) run();
  return (performance.now() - t0) / ITERATIONS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface BenchFigures {
  readonly participants: number;
  readonly required: number;
  readonly freeIntervals: number;
  readonly starts: number;
  readonly best: Best;
  /** Median milliseconds per run. */
  readonly oacop: number;
  readonly grid: number;
  readonly lists: number;
}

/** Checks the three agree, warms up, then alternates them round by round. */
export function runSchedulingBench(): BenchFigures {
  const answers = [oacop(), gridScan(), intervalLists()].map((b) => JSON.stringify(b));
  if (new Set(answers).size !== 1) throw new Error(`The three disagree: ${answers.join(' | ')}`);
  for (let i = 0; i < 3; i++) [oacop, gridScan, intervalLists].forEach(time);
  const samples = { oacop: [] as number[], grid: [] as number[], lists: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    samples.oacop.push(time(oacop));
    samples.grid.push(time(gridScan));
    samples.lists.push(time(intervalLists));
  }
  return {
    participants: PARTICIPANTS,
    required: REQUIRED,
    freeIntervals: totalIntervals,
    starts: Math.floor((WINDOW_END - DURATION - WINDOW_START) / STEP) + 1,
    best: JSON.parse(answers[0]!) as Best,
    oacop: median(samples.oacop),
    grid: median(samples.grid),
    lists: median(samples.lists),
  };
}
