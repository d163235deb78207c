// A person's own busy time from an imported `.ics` (BRIEF: "calendars … .ics import"), to offer
// free slots without sharing the calendar (OACoP §1.1). Unlike fromICalendar this reads real-world
// files: any number of events, recurring ones expanded inside the window through ical.js, time
// zones from the file's VTIMEZONEs, all-day and floating times taken as UTC.
import ICAL from 'ical.js';
import { fail, ok, type Result } from '../errors';
import { OacopLocalErrorCode } from './error-codes';
import { guarded, invalidIcal, parseCalendar, timeToMs, type ICalComponent, type ICalTime } from './ical-support';
import { clipIntervals, parseSlot, toSlot, type Interval } from './intervals';
import type { Slot } from './messages';

/**
 * Recurrence steps walked per series before giving up (e.g. `FREQ=MINUTELY` from years ago): ical.js
 * walks every occurrence from DTSTART, and 25 000 covers a daily event for 68 years.
 */
export const MAX_OCCURRENCES = 25_000;

const lenient = { lenient: true } as const;
const DAY_MS = 86_400_000;

/** Busy intervals inside `window`, merged and sorted, or `OACOP_INVALID_ICAL`. */
export function busyFromICalendar(
  text: string,
  window: Slot,
  options: { readonly maxOccurrences?: number } = {},
): Result<Slot[]> {
  const limit = options.maxOccurrences ?? MAX_OCCURRENCES;
  const range = parseSlot(window);
  if (range === undefined)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The window is not a UTC slot with start before end.');
  const calendar = parseCalendar(text);
  if (!calendar.ok) return calendar;
  return guarded('Invalid iCalendar value', () => {
    const busy: Interval[] = [];
    for (const group of eventsByUid(calendar.value)) {
      const added = addEvent(group, range, busy, limit);
      if (!added.ok) return added;
    }
    for (const freebusy of calendar.value.getAllSubcomponents('vfreebusy')) {
      const added = addFreeBusy(freebusy, busy);
      if (!added.ok) return added;
    }
    return ok(clipIntervals(busy, range).map(toSlot));
  });
}

// RFC 5545 §3.8.4.4: one UID is one series; a RECURRENCE-ID component overrides one occurrence.
function eventsByUid(calendar: ICalComponent): ICalComponent[][] {
  const groups = new Map<string, ICalComponent[]>();
  calendar.getAllSubcomponents('vevent').forEach((event, i) => {
    const uid: unknown = event.getFirstPropertyValue('uid');
    const key = typeof uid === 'string' ? `uid:${uid}` : `index:${i}`;
    groups.set(key, [...(groups.get(key) ?? []), event]);
  });
  return [...groups.values()];
}

// RFC 5545 §3.8.2.7 TRANSP:TRANSPARENT and §3.8.1.11 STATUS:CANCELLED take no time.
const takesTime = (component: ICalComponent): boolean =>
  component.getFirstPropertyValue('transp') !== 'TRANSPARENT' &&
  component.getFirstPropertyValue('status') !== 'CANCELLED';

function addEvent(group: readonly ICalComponent[], window: Interval, busy: Interval[], limit: number): Result<void> {
  const master = group.find((c) => !c.hasProperty('recurrence-id'));
  const exceptions = group.filter((c) => c !== master);
  if (master === undefined) {
    // Overrides without their series: each is a plain event.
    for (const exception of exceptions) {
      const added = addOccurrence(new ICAL.Event(exception), exception, busy);
      if (!added.ok) return added;
    }
    return ok(undefined);
  }
  const event = new ICAL.Event(master, { exceptions });
  if (!event.isRecurring()) return addOccurrence(event, master, busy);

  const iterator = event.iterator();
  for (let steps = 0, next = iterator.next(); next !== undefined && next !== null; next = iterator.next(), steps++) {
    if (steps >= limit) return invalidIcal(`A recurrence expands past ${limit} occurrences before the window ends.`);
    const occurrenceStart = toMs(next, master);
    if (!occurrenceStart.ok) return occurrenceStart;
    if (occurrenceStart.value >= window.end) break;
    const details = event.getOccurrenceDetails(next);
    if (!takesTime(details.item.component)) continue;
    const added = addSpan(details.startDate, details.endDate, details.item.component, busy);
    if (!added.ok) return added;
  }
  // An override may move an occurrence from after the window into it.
  for (const exception of exceptions) {
    const recurrence = toMs(exception.getFirstPropertyValue('recurrence-id') as ICalTime, exception, 'recurrence-id');
    if (!recurrence.ok) return recurrence;
    if (recurrence.value < window.end) continue;
    const added = addOccurrence(new ICAL.Event(exception), exception, busy);
    if (!added.ok) return added;
  }
  return ok(undefined);
}

function addOccurrence(
  event: InstanceType<typeof ICAL.Event>,
  component: ICalComponent,
  busy: Interval[],
): Result<void> {
  if (!takesTime(component)) return ok(undefined);
  return addSpan(event.startDate, event.endDate, component, busy);
}

function addSpan(start: ICalTime, end: ICalTime, component: ICalComponent, busy: Interval[]): Result<void> {
  const from = toMs(start, component, 'dtstart');
  if (!from.ok) return from;
  const to = toMs(end, component, component.hasProperty('due') ? 'due' : 'dtend');
  if (!to.ok) return to;
  // RFC 5545 §3.6.1: an all-day event without DTEND lasts one day.
  const until = to.value <= from.value && start.isDate ? from.value + DAY_MS : to.value;
  if (until > from.value) busy.push({ start: from.value, end: until });
  return ok(undefined);
}

function toMs(time: ICalTime, component: ICalComponent, name = 'dtstart'): Result<number> {
  const property = component.getFirstProperty(name) ?? new ICAL.Property(name);
  return timeToMs(time, property, lenient);
}

// RFC 5545 §3.8.2.6 FREEBUSY periods; FBTYPE defaults to BUSY, and FREE is not busy.
function addFreeBusy(component: ICalComponent, busy: Interval[]): Result<void> {
  for (const property of component.getAllProperties('freebusy')) {
    if (String(property.getParameter('fbtype') ?? 'BUSY').toUpperCase() === 'FREE') continue;
    for (const period of property.getValues() as InstanceType<typeof ICAL.Period>[]) {
      const from = timeToMs(period.start, property, lenient);
      const to = timeToMs(period.getEnd(), property, lenient);
      if (!from.ok) return from;
      if (!to.ok) return to;
      if (to.value > from.value) busy.push({ start: from.value, end: to.value });
    }
  }
  return ok(undefined);
}
