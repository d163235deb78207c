// Finding a common slot (OACoP §3.2 → §3.3): every required participant free for the whole
// duration, ranked by how many optional participants are free too. Candidate starts lie on a UTC
// grid (default 15 minutes); each participant's free time becomes one bit set of the starts it
// allows, so the work is a handful of word operations per participant (docs/decisions-oacop.md,
// "Slot granularity").
import { fail, ok, type Result } from '../errors';
import { andInto, createBitset, forEachSetBit, hasBit, setRange, type Bitset } from './bitset';
import { durationMs, type DurationInput } from './duration';
import { OacopErrorCode, OacopLocalErrorCode } from './error-codes';
import { mergeIntervals, parseSlot, parseSlots, type Interval } from './intervals';
import type { Did, Slot } from './messages';
import { formatUtc, MINUTE_MS } from './utc-time';

export interface AvailabilityQuery {
  readonly window: Slot;
  /** ISO 8601 duration (`PT30M`) or whole minutes. */
  readonly duration: DurationInput;
  /** Each responder's free slots (their `availableSlots`). */
  readonly participants: ReadonlyMap<Did, readonly Slot[]>;
  /** Must all be free; a required DID absent from `participants` is never free. */
  readonly required: readonly Did[];
  /** Spacing of candidate starts, aligned to the UTC hour. Default 15. */
  readonly granularityMinutes?: number;
  /** How many ranked slots to return in each list. Default 50. */
  readonly limit?: number;
}

export interface CandidateSlot extends Slot {
  /** Optional participants free for the whole slot, in `participants` order. */
  readonly optionalFree: readonly Did[];
  /** Required participants not free for the whole slot; empty for a candidate. */
  readonly missingRequired: readonly Did[];
}

export interface AvailabilityResult {
  /** Slots where every required participant is free, most optional participants first, then earliest. */
  readonly candidates: readonly CandidateSlot[];
  /** Only when there is no candidate: slots where the most required participants are free. */
  readonly nearestAlternatives: readonly CandidateSlot[];
}

export function intersectAvailability(query: AvailabilityQuery): Result<AvailabilityResult> {
  const granularity = query.granularityMinutes ?? 15;
  const limit = query.limit ?? 50;
  if (!Number.isSafeInteger(granularity) || granularity < 1)
    throw new RangeError('granularityMinutes must be a positive integer');
  if (!(limit >= 0)) throw new RangeError('limit must be a non-negative number');
  const window = parseSlot(query.window);
  if (window === undefined)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The time window is not a UTC slot with start before end.');
  const duration = durationMs(query.duration);
  if (duration === undefined)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, `${String(query.duration)} is not a positive duration.`);
  if (duration > window.end - window.start) {
    return fail(OacopErrorCode.UNSUPPORTED_CONSTRAINT, 'The duration is longer than the time window.');
  }

  const step = granularity * MINUTE_MS;
  const grid = { first: Math.ceil(window.start / step) * step, step, duration, size: 0 };
  const lastStart = window.end - duration;
  grid.size = lastStart < grid.first ? 0 : Math.floor((lastStart - grid.first) / step) + 1;

  const free = new Map<Did, Bitset>();
  for (const [did, slots] of query.participants) {
    const parsed = parseSlots(slots, `${did}'s slot`);
    if (!parsed.ok) return parsed;
    free.set(did, startable(parsed.value, grid));
  }
  const required = [...new Set(query.required)];
  const optional = [...query.participants.keys()].filter((did) => !required.includes(did));
  const none = createBitset(grid.size);

  const common = createBitset(grid.size);
  setRange(common, 0, grid.size);
  for (const did of required) andInto(common, free.get(did) ?? none);

  const optionalCount = new Uint16Array(grid.size);
  for (const did of optional)
    forEachSetBit(free.get(did) ?? none, (i) => (optionalCount[i] = (optionalCount[i] ?? 0) + 1));

  const describe = (i: number): CandidateSlot => {
    const start = grid.first + i * step;
    return {
      start: formatUtc(start),
      end: formatUtc(start + duration),
      optionalFree: optional.filter((did) => hasBit(free.get(did) ?? none, i)),
      missingRequired: required.filter((did) => !hasBit(free.get(did) ?? none, i)),
    };
  };

  const candidates: number[] = [];
  forEachSetBit(common, (i) => candidates.push(i));
  if (candidates.length > 0 || required.length === 0) {
    const ranked = candidates.sort((a, b) => (optionalCount[b] ?? 0) - (optionalCount[a] ?? 0) || a - b);
    return ok({ candidates: ranked.slice(0, limit).map(describe), nearestAlternatives: [] });
  }

  // No common slot: rank starts by how many required participants are free, then optional ones.
  const requiredCount = new Uint16Array(grid.size);
  for (const did of required)
    forEachSetBit(free.get(did) ?? none, (i) => (requiredCount[i] = (requiredCount[i] ?? 0) + 1));
  const partial: number[] = [];
  requiredCount.forEach((count, i) => {
    if (count > 0) partial.push(i);
  });
  const score = (i: number): number => (requiredCount[i] ?? 0) * (optional.length + 1) + (optionalCount[i] ?? 0);
  const alternatives = partial.sort((a, b) => score(b) - score(a) || a - b);
  return ok({ candidates: [], nearestAlternatives: alternatives.slice(0, limit).map(describe) });
}

interface Grid {
  readonly first: number;
  readonly step: number;
  readonly duration: number;
  readonly size: number;
}

/** The grid starts `t` with `[t, t + duration)` inside one free interval. */
function startable(slots: readonly Interval[], grid: Grid): Bitset {
  const bits = createBitset(grid.size);
  // Touching slots join first: free 9–10 and 10–11 hold a 90-minute meeting at 9:15.
  for (const { start, end } of mergeIntervals(slots)) {
    const from = Math.max(0, Math.ceil((start - grid.first) / grid.step));
    const to = Math.min(grid.size - 1, Math.floor((end - grid.duration - grid.first) / grid.step));
    if (from <= to) setRange(bits, from, to + 1);
  }
  return bits;
}
