// OACoP §2.4, OACoP → iCalendar: one VCALENDAR holding one VEVENT (Event) or VTODO (Task), built
// through ical.js so escaping, folding and the basic date format (`20251210T090000Z`) are
// RFC 5545's. Recurrence stays one series (§2.4 note).
import ICAL from 'ical.js';
import { unwrap } from '../errors';
import { normalizeCalendarEntry, type CalendarEntry } from './calendar-entry';
import { COMPONENT_NAME, copyProperty, parseIcalComponent } from './ical-component';

export const PRODID = '-//Switchboard//OACoP 1.0//EN';

/**
 * The `.ics` text of `entry` (CRLF line ends). Throws a `CodedError` `OACOP_INVALID_ICAL` when the
 * entry has no iCalendar form (see `normalizeCalendarEntry`); the types rule most of that out.
 */
export function toICalendar(entry: CalendarEntry): string {
  const { id, revision, stamp, object, cancelled } = unwrap(normalizeCalendarEntry(entry));
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('prodid', PRODID);
  calendar.addPropertyWithValue('version', '2.0');
  const item = new ICAL.Component(COMPONENT_NAME[object.type]);
  calendar.addSubcomponent(item);

  item.addPropertyWithValue('uid', id);
  item.addPropertyWithValue('dtstamp', at(stamp));
  item.addPropertyWithValue('sequence', revision);
  if (cancelled === true) item.addPropertyWithValue('status', 'CANCELLED');
  if (object.title !== undefined) item.addPropertyWithValue('summary', object.title);
  if (object.description !== undefined) item.addPropertyWithValue('description', object.description);
  if (object.location !== undefined) item.addPropertyWithValue('location', object.location);
  if (object.startDate !== undefined) item.addPropertyWithValue('dtstart', at(object.startDate));
  // RFC 5545 §3.6.1/§3.6.2: DTEND (DUE for a task) and DURATION must not both appear. An object
  // that was given a duration keeps the table's DURATION row; otherwise its end is written. On
  // import either one yields both (docs/decisions-oacop.md, "DTEND or DURATION").
  if (entry.object.duration !== undefined && object.duration !== undefined) {
    // The canonical text as is: ical.js would drop the `0M` RFC 5545 needs in `PT1H0M5S`.
    item.addPropertyWithValue('duration', object.duration);
  } else if (object.endDate !== undefined) {
    item.addPropertyWithValue(object.type === 'Event' ? 'dtend' : 'due', at(object.endDate));
  }
  if (object.icalComponent !== undefined) {
    for (const property of unwrap(parseIcalComponent(object.icalComponent, object.type))) {
      item.addProperty(copyProperty(property));
    }
  }
  // Task relations (§2.2) as RELATED-TO: RELTYPE=PARENT is RFC 5545 §3.2.15, DEPENDS-ON is RFC 9253 §9.1.
  if (object.parentTaskId !== undefined) relate(item, 'PARENT', object.parentTaskId);
  for (const dependency of object.dependencies ?? []) relate(item, 'DEPENDS-ON', dependency);
  return calendar.toString() + '\r\n';
}

// Normalized times are canonical `YYYY-MM-DDTHH:MM:SSZ`, which ical.js reads as UTC.
const at = (utc: string) => ICAL.Time.fromDateTimeString(utc);

function relate(item: InstanceType<typeof ICAL.Component>, reltype: string, uid: string): void {
  item.addPropertyWithValue('related-to', uid).setParameter('reltype', reltype);
}
