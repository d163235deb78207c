// OACoP §8.2 (informative) room and device agents: they accept a booking (an AssignTask) when the
// slot is free in their calendar and meets the constraints they publish, `minDuration` and
// `requiresCleaningGap`. Any other published constraint is one this code cannot enforce.
import { fail, ok, type Result } from '../errors';
import { durationMs, type DurationInput } from './duration';
import { OacopErrorCode } from './error-codes';
import { overlaps, parseSlot, parseSlots, type Interval } from './intervals';
import type { Slot } from './messages';
import { MINUTE_MS } from './utc-time';

export interface RoomConstraints {
  /** Shortest booking, ISO 8601 duration or minutes. */
  readonly minDuration?: DurationInput;
  /** Minutes that must stay free before and after every booking. */
  readonly requiresCleaningGap?: number;
}

const KNOWN: ReadonlySet<string> = new Set(['minDuration', 'requiresCleaningGap']);
const { CONFLICT, UNSUPPORTED_CONSTRAINT } = OacopErrorCode;

export interface BookingRequest {
  /** The resource's busy intervals (existing bookings). */
  readonly busy: readonly Slot[];
  readonly slot: Slot;
  /** As published by the resource; may hold keys it does not know, hence the wide type. */
  readonly constraints: RoomConstraints & Readonly<Record<string, unknown>>;
}

/**
 * `ok` when the resource can take `slot`. `OACOP_UNSUPPORTED_CONSTRAINT` when the slot breaks a
 * constraint the requester must relax or lengthen for (or a constraint is unknown or malformed);
 * `OACOP_CONFLICT` when it overlaps a booking or its cleaning gap.
 */
export function checkBooking(request: BookingRequest): Result<void> {
  const { constraints } = request;
  const unknown = Object.keys(constraints).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0)
    return fail(UNSUPPORTED_CONSTRAINT, `Unsupported constraint ${unknown.join(', ')}.`, { unknown });
  const slot = parseSlot(request.slot);
  if (slot === undefined) return fail(UNSUPPORTED_CONSTRAINT, 'The slot is not a UTC slot with start before end.');
  const busy = parseSlots(request.busy, 'busy slot');
  if (!busy.ok) return busy;

  if (constraints.minDuration !== undefined) {
    const min = durationMs(constraints.minDuration);
    if (min === undefined) return fail(UNSUPPORTED_CONSTRAINT, 'minDuration is not a positive duration.');
    if (slot.end - slot.start < min) {
      return fail(
        UNSUPPORTED_CONSTRAINT,
        `The booking is shorter than the minimum ${String(constraints.minDuration)}.`,
        {
          constraint: 'minDuration',
        },
      );
    }
  }
  const gapMinutes = constraints.requiresCleaningGap ?? 0;
  if (!Number.isSafeInteger(gapMinutes) || gapMinutes < 0) {
    return fail(UNSUPPORTED_CONSTRAINT, 'requiresCleaningGap must be whole minutes ≥ 0.');
  }

  const clash = busy.value.find((b) => overlaps(b, slot));
  if (clash !== undefined) return fail(CONFLICT, 'The slot is already booked.', { busy: clash, reason: 'busy' });
  const gap = gapMinutes * MINUTE_MS;
  const padded: Interval = { start: slot.start - gap, end: slot.end + gap };
  const tooClose = busy.value.find((b) => overlaps(b, padded));
  if (tooClose !== undefined) {
    return fail(CONFLICT, `The slot leaves less than the ${gapMinutes}-minute cleaning gap.`, {
      busy: tooClose,
      reason: 'cleaning_gap',
    });
  }
  return ok(undefined);
}
