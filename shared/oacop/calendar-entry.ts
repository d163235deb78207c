// The OACoP side of the §2.4 iCalendar mapping. The table names `object.startDate` and
// `object.endDate`, which no schema defines: here they are the scheduled times (a Confirm's
// `finalSlot`, a task's start and deadline), added to the §2.2 object (docs/decisions-oacop.md,
// "startDate/endDate"). `normalizeCalendarEntry` states what a mappable entry is; both directions
// of the mapping produce and accept exactly its output.
import { fail, ok, type Result } from '../errors';
import { formatDuration, parseDuration } from './duration';
import { OacopErrorCode } from './error-codes';
import { formatIcalComponent, parseIcalComponent } from './ical-component';
import type { CollaborationObject } from './messages';
import { formatUtc, parseUtc } from './utc-time';

export type CalendarObject = CollaborationObject & {
  /** §2.4 → DTSTART. */
  readonly startDate?: string;
  /** §2.4 → DTEND for an Event; DUE for a Task, which has no DTEND (RFC 5545 §3.6.2). */
  readonly endDate?: string;
};

export interface CalendarEntry {
  /** §2.4 `id` → UID. Use the threadId, so every revision updates the same calendar item. */
  readonly id: string;
  /** §2.4 `revision` → SEQUENCE. */
  readonly revision: number;
  /** → DTSTAMP, which RFC 5545 requires and §2.4 omits: when this revision was made (UTC). */
  readonly stamp: string;
  readonly object: CalendarObject;
  /** → STATUS:CANCELLED, so re-exporting a cancelled thread cancels the calendar item (§3.5). */
  readonly cancelled?: boolean;
}

const invalid = (message: string) => fail(OacopErrorCode.INVALID_ICAL, message);

// RFC 5545 §3.3.11 TEXT carries line breaks as `\n` only and no other control characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/**
 * The canonical form of a mappable entry, or `OACOP_INVALID_ICAL` saying why it has none:
 * times become `YYYY-MM-DDTHH:MM:SSZ`, CR LF and CR become LF, the duration and `icalComponent`
 * take their canonical text, and whichever of end and duration is missing is derived from the other
 * (a scheduled item always carries both, consistent).
 */
export function normalizeCalendarEntry(entry: CalendarEntry): Result<CalendarEntry> {
  const { object } = entry;
  if (entry.id === '') return invalid('An entry needs an id for UID.');
  if (!Number.isSafeInteger(entry.revision) || entry.revision < 1)
    return invalid('revision must be an integer ≥ 1 (OACoP §2.1).');
  const stamp = time(entry.stamp, 'stamp');
  if (!stamp.ok) return stamp;

  const texts: Record<string, string> = {};
  for (const key of ['title', 'description', 'location'] as const) {
    const value = object[key];
    if (value === undefined) continue;
    const text = value.replace(/\r\n?/g, '\n');
    if (CONTROL.test(text)) return invalid(`object.${key} holds a control character iCalendar TEXT cannot carry.`);
    texts[key] = text;
  }

  const start = object.startDate === undefined ? undefined : time(object.startDate, 'object.startDate');
  const end = object.endDate === undefined ? undefined : time(object.endDate, 'object.endDate');
  if (start?.ok === false) return start;
  if (end?.ok === false) return end;
  let durationMs = object.duration === undefined ? undefined : parseDuration(object.duration);
  if (object.duration !== undefined && (durationMs === undefined || durationMs % 1000 !== 0)) {
    return invalid(`object.duration ${object.duration} is not a whole-second RFC 5545 duration.`);
  }
  // RFC 5545 §3.6.1: a VEVENT needs DTSTART unless the calendar has a METHOD, which OACoP's has not.
  if (object.type === 'Event' && start === undefined) return invalid('An Event needs a startDate for DTSTART.');
  // RFC 5545 §3.6.2: "If DURATION appears in a VTODO, then DTSTART MUST also appear."
  if (start === undefined && durationMs !== undefined)
    return invalid('A duration needs a startDate (RFC 5545 §3.6.2).');

  let endMs = end?.value;
  if (start !== undefined) {
    if (endMs === undefined && durationMs !== undefined) endMs = start.value + durationMs;
    if (endMs !== undefined && endMs <= start.value) return invalid('endDate must be after startDate.');
    if (endMs !== undefined && durationMs !== undefined && endMs - start.value !== durationMs) {
      return invalid(`endDate − startDate is not ${object.duration}.`);
    }
    if (endMs !== undefined) durationMs = endMs - start.value;
  }

  let icalComponent: string | undefined;
  if (object.icalComponent !== undefined) {
    const parsed = parseIcalComponent(object.icalComponent, object.type);
    if (!parsed.ok) return parsed;
    icalComponent = formatIcalComponent(parsed.value, object.type);
  }

  // Only mapped fields survive, so the mapping round-trips exactly (an unmapped field would not).
  const normalized: CalendarObject = {
    type: object.type,
    ...texts,
    ...(start === undefined ? {} : { startDate: formatUtc(start.value) }),
    ...(endMs === undefined ? {} : { endDate: formatUtc(endMs) }),
    ...(durationMs === undefined ? {} : { duration: formatDuration(durationMs) }),
    ...(icalComponent === undefined ? {} : { icalComponent }),
    ...(object.parentTaskId === undefined ? {} : { parentTaskId: object.parentTaskId }),
    ...(object.dependencies === undefined || object.dependencies.length === 0
      ? {}
      : { dependencies: [...object.dependencies] }),
  };
  const cancelled = entry.cancelled === true ? { cancelled: true } : {};
  return ok({
    id: entry.id,
    revision: entry.revision,
    stamp: formatUtc(stamp.value),
    object: normalized,
    ...cancelled,
  });
}

function time(value: string, what: string): Result<number> {
  const ms = parseUtc(value);
  if (ms === undefined) return invalid(`${what} ${value} is not a UTC date-time (OACoP §2.4).`);
  if (ms % 1000 !== 0) return invalid(`${what} has milliseconds; iCalendar times have whole seconds.`);
  return ok(ms);
}
