// The thread's .ics (OACoP §2.4 through shared/oacop and ical.js): UID = threadId (stable across
// exports), SEQUENCE = revision, times in UTC. A PROPOSED thread has no time yet, so no file.
import { fail, ok, type Result } from '@shared/errors';
import { threadCalendarEntry } from '@shared/oacop/calendar-entries';
import type { ThreadState } from '@shared/oacop/scheduling-thread';
import { toICalendar } from '@shared/oacop/to-icalendar';
import { formatUtc } from '@shared/oacop/utc-time';

export function threadIcs(state: ThreadState, now: number): Result<string> {
  if (state.status === 'PROPOSED')
    return fail(
      'OACOP_INVALID_TRANSITION',
      'Approve a slot first: a proposed meeting has no time to put in a calendar.',
    );
  try {
    // DTSTAMP has whole seconds in iCalendar (RFC 5545 §3.3.5); the entry refuses milliseconds.
    return ok(toICalendar(threadCalendarEntry(state, formatUtc(Math.floor(now / 1000) * 1000))));
  } catch (error) {
    return fail('OACOP_INVALID_ICAL', error instanceof Error ? error.message : String(error));
  }
}

/** A file name from the title: "quarterly-planning.ics". */
export function icsFileName(title: string | undefined): string {
  const base = (title ?? 'meeting')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base || 'meeting'}.ics`;
}
