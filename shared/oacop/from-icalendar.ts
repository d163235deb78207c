// OACoP §2.4, iCalendar → OACoP: the inverse of to-icalendar.ts for one VEVENT or VTODO. Anything
// the mapping cannot represent faithfully is `OACOP_INVALID_ICAL` (§5: "Abort"), never guessed at.
import ICAL from 'ical.js';
import { ok, type Result } from '../errors';
import { normalizeCalendarEntry, type CalendarEntry, type CalendarObject } from './calendar-entry';
import { copyProperty, formatIcalComponent, recurrenceOf, type ItemType } from './ical-component';
import {
  guarded,
  invalidIcal,
  parseCalendar,
  timeToMs,
  type ICalComponent,
  type ICalProperty,
  type ICalTime,
} from './ical-support';
import { parseDuration } from './duration';
import { formatUtc } from './utc-time';

const ITEM_TYPE: Readonly<Record<string, ItemType>> = { vevent: 'Event', vtodo: 'Task' };
const strict = { lenient: false } as const;

export function fromICalendar(text: string): Result<CalendarEntry> {
  const calendar = parseCalendar(text);
  if (!calendar.ok) return calendar;
  const items = calendar.value.getAllSubcomponents().filter((c) => c.name !== 'vtimezone');
  const unknown = items.find((c) => ITEM_TYPE[c.name] === undefined);
  if (unknown !== undefined)
    return invalidIcal(`Unsupported component ${unknown.name.toUpperCase()}; OACoP maps VEVENT and VTODO.`);
  const [item, ...more] = items;
  if (item === undefined || more.length > 0) return invalidIcal(`Expected one VEVENT or VTODO, found ${items.length}.`);
  const sequence = rawSequence(text);
  if (!sequence.ok) return sequence;
  return guarded('Invalid iCalendar value', () => readItem(item, sequence.value));
}

function readItem(item: ICalComponent, sequence: number | undefined): Result<CalendarEntry> {
  const type = ITEM_TYPE[item.name] as ItemType;
  const uid = item.getFirstPropertyValue('uid');
  if (typeof uid !== 'string' || uid === '') return invalidIcal('The item has no UID.');
  const stampProperty = item.getFirstProperty('dtstamp');
  if (stampProperty === null) return invalidIcal('The item has no DTSTAMP (RFC 5545 §3.8.7.2).');
  const stamp = readTime(stampProperty);
  if (!stamp.ok) return stamp;

  const start = optionalTime(item, 'dtstart');
  if (!start.ok) return start;
  const end = optionalTime(item, type === 'Event' ? 'dtend' : 'due');
  if (!end.ok) return end;
  // The raw text, not ical.js's reading: it takes `P1M` as one minute where RFC 5545 has no such form.
  const durationProperty = item.getFirstProperty('duration');
  const duration = durationProperty === null ? undefined : String(durationProperty.jCal[3]);
  if (duration !== undefined && parseDuration(duration) === undefined) {
    return invalidIcal(`DURATION ${duration} is not a positive duration of weeks, days, hours, minutes and seconds.`);
  }
  if (end.value !== undefined && duration !== undefined) {
    return invalidIcal('DTEND/DUE and DURATION must not both appear (RFC 5545 §3.6.1).');
  }

  const recurrence = utcRecurrence(item);
  if (!recurrence.ok) return recurrence;
  const related = relations(item);
  if (!related.ok) return related;

  const text = (name: string): string | undefined => {
    const value: unknown = item.getFirstPropertyValue(name);
    return typeof value === 'string' ? value : undefined;
  };
  const object: CalendarObject = {
    type,
    ...defined('title', text('summary')),
    ...defined('description', text('description')),
    ...defined('location', text('location')),
    ...defined('startDate', start.value === undefined ? undefined : formatUtc(start.value)),
    ...defined('endDate', end.value === undefined ? undefined : formatUtc(end.value)),
    ...defined('duration', duration),
    ...defined(
      'icalComponent',
      recurrence.value.length === 0 ? undefined : formatIcalComponent(recurrence.value, type),
    ),
    ...related.value,
  };
  // SEQUENCE counts from 0 in RFC 5545 and revisions from 1 in OACoP §2.1: 0 or none is revision 1.
  const revision = Math.max(1, sequence ?? 0);
  // The normal form also checks order (DTEND after DTSTART) and the DTSTART rules of §3.6.1–2.
  const cancelled = item.getFirstPropertyValue('status') === 'CANCELLED' ? { cancelled: true } : {};
  return normalizeCalendarEntry({ id: uid, revision, stamp: formatUtc(stamp.value), object, ...cancelled });
}

const defined = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

function readTime(property: ICalProperty): Result<number> {
  const value: unknown = property.getFirstValue();
  if (!(value instanceof ICAL.Time)) return invalidIcal(`${property.name.toUpperCase()} is not a date-time.`);
  return timeToMs(value, property, strict);
}

function optionalTime(item: ICalComponent, name: string): Result<number | undefined> {
  const property = item.getFirstProperty(name);
  return property === null ? ok(undefined) : readTime(property);
}

/** RRULE, EXDATE and RDATE with zoned values moved to UTC, as `icalComponent` carries them. */
function utcRecurrence(item: ICalComponent): Result<ICalProperty[]> {
  const copy = new ICAL.Component(item.name);
  for (const rule of item.getAllProperties('rrule')) copy.addProperty(copyProperty(rule));
  for (const name of ['exdate', 'rdate']) {
    for (const property of item.getAllProperties(name)) {
      const clone = new ICAL.Property(name);
      clone.resetType(property.type);
      const values = property.getValues() as unknown[];
      clone.setValues(values.map((v) => (v instanceof ICAL.Time && !v.isDate ? toUtc(v) : v)) as never[]);
      copy.addProperty(clone);
    }
  }
  return recurrenceOf(copy, 'Recurrence');
}

const toUtc = (time: ICalTime): ICalTime => time.convertToZone(ICAL.Timezone.utcTimezone);

// §2.2 parentTaskId and dependencies from RELATED-TO (RELTYPE defaults to PARENT, RFC 5545 §3.2.15).
function relations(item: ICalComponent): Result<Pick<CalendarObject, 'parentTaskId' | 'dependencies'>> {
  const parents: string[] = [];
  const dependencies: string[] = [];
  for (const property of item.getAllProperties('related-to')) {
    const reltype: unknown = property.getParameter('reltype');
    const kind = typeof reltype === 'string' ? reltype.toUpperCase() : 'PARENT';
    const value = String(property.getFirstValue());
    if (kind === 'PARENT') parents.push(value);
    else if (kind === 'DEPENDS-ON') dependencies.push(value);
  }
  if (parents.length > 1) return invalidIcal('More than one parent in RELATED-TO.');
  return ok({
    ...defined('parentTaskId', parents[0]),
    ...defined('dependencies', dependencies.length === 0 ? undefined : dependencies),
  });
}

// ical.js reads a malformed SEQUENCE (`abc`, `-1`) as 0; the raw text is checked instead.
function rawSequence(text: string): Result<number | undefined> {
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  const line = /^SEQUENCE(?:;[^:\r\n]*)?:(.*)$/im.exec(unfolded);
  if (line === null) return ok(undefined);
  const value = (line[1] ?? '').trim();
  return /^\d{1,9}$/.test(value) ? ok(Number(value)) : invalidIcal(`SEQUENCE ${value} is not a non-negative integer.`);
}
