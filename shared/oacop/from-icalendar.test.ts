import { describe, expect, it } from 'vitest';
import { fromICalendar } from './from-icalendar';
import { BERLIN, calendar, vevent } from './test-support/ics';

const start = 'DTSTART:20251210T100000Z';
const end = 'DTEND:20251210T103000Z';
const codeOf = (text: string) => {
  const result = fromICalendar(text);
  return result.ok ? 'ok' : result.error.code;
};

describe('fromICalendar (OACoP §2.4, iCalendar → OACoP)', () => {
  it('reads a VEVENT, deriving the duration from DTEND', () => {
    expect(fromICalendar(calendar(vevent('SEQUENCE:2', 'SUMMARY:Strategy Workshop', start, end)))).toEqual({
      ok: true,
      value: {
        id: 'urn:uuid:meet-1',
        revision: 2,
        stamp: '2025-12-03T09:05:00Z',
        object: {
          type: 'Event',
          title: 'Strategy Workshop',
          startDate: '2025-12-10T10:00:00Z',
          endDate: '2025-12-10T10:30:00Z',
          duration: 'PT30M',
        },
      },
    });
  });

  it('reads DURATION in any form, giving the canonical one and the end', () => {
    expect(fromICalendar(calendar(vevent(start, 'DURATION:PT60M')))).toMatchObject({
      ok: true,
      value: { object: { duration: 'PT1H', endDate: '2025-12-10T11:00:00Z' } },
    });
  });

  it('takes SEQUENCE 0 or none as revision 1 (RFC 5545 counts from 0, OACoP §2.1 from 1)', () => {
    expect(fromICalendar(calendar(vevent(start)))).toMatchObject({ ok: true, value: { revision: 1 } });
    expect(fromICalendar(calendar(vevent('SEQUENCE:0', start)))).toMatchObject({ ok: true, value: { revision: 1 } });
  });

  it("moves zoned times to UTC using the file's VTIMEZONE, summer and winter", () => {
    const zoned = calendar(
      BERLIN,
      vevent(
        'DTSTART;TZID=Europe/Berlin:20251210T090000',
        'DTEND;TZID=Europe/Berlin:20251210T100000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'EXDATE;TZID=Europe/Berlin:20251217T090000',
      ),
    );
    expect(fromICalendar(zoned)).toMatchObject({
      ok: true,
      value: {
        object: {
          startDate: '2025-12-10T08:00:00Z',
          endDate: '2025-12-10T09:00:00Z',
          icalComponent: 'BEGIN:VEVENT\nRRULE:FREQ=WEEKLY;COUNT=3\nEXDATE:20251217T080000Z\nEND:VEVENT',
        },
      },
    });
    expect(fromICalendar(calendar(BERLIN, vevent('DTSTART;TZID=Europe/Berlin:20250710T090000')))).toMatchObject({
      ok: true,
      value: { object: { startDate: '2025-07-10T07:00:00Z' } },
    });
  });

  it('writes an imported RRULE with FREQ first (RFC 5545 §3.3.10)', () => {
    expect(fromICalendar(calendar(vevent(start, 'RRULE:COUNT=3;FREQ=DAILY')))).toMatchObject({
      ok: true,
      value: { object: { icalComponent: 'BEGIN:VEVENT\nRRULE:FREQ=DAILY;COUNT=3\nEND:VEVENT' } },
    });
  });

  it('keeps DATE exceptions as DATEs', () => {
    expect(
      fromICalendar(calendar(vevent(start, 'RRULE:FREQ=DAILY;COUNT=3', 'EXDATE;VALUE=DATE:20251211'))),
    ).toMatchObject({
      ok: true,
      value: {
        object: { icalComponent: 'BEGIN:VEVENT\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE;VALUE=DATE:20251211\nEND:VEVENT' },
      },
    });
  });

  it('reads a VTODO: DUE is the endDate, RELATED-TO the relations, STATUS:CANCELLED the cancellation', () => {
    const todo = calendar(
      'BEGIN:VTODO',
      'UID:urn:uuid:task-1',
      'DTSTAMP:20251203T090500Z',
      'SUMMARY:Report',
      'DUE:20251220T120000Z',
      'STATUS:CANCELLED',
      'RELATED-TO:urn:uuid:project-alpha',
      'RELATED-TO;RELTYPE=DEPENDS-ON:urn:uuid:a',
      'RELATED-TO;RELTYPE=SIBLING:urn:uuid:ignored',
      'END:VTODO',
    );
    expect(fromICalendar(todo)).toEqual({
      ok: true,
      value: {
        id: 'urn:uuid:task-1',
        revision: 1,
        stamp: '2025-12-03T09:05:00Z',
        cancelled: true,
        object: {
          type: 'Task',
          title: 'Report',
          endDate: '2025-12-20T12:00:00Z',
          parentTaskId: 'urn:uuid:project-alpha',
          dependencies: ['urn:uuid:a'],
        },
      },
    });
  });

  it('ignores VTIMEZONE and unmapped properties', () => {
    expect(codeOf(calendar(BERLIN, vevent(start, 'X-WR-FOO:bar', 'CATEGORIES:a,b')))).toBe('ok');
  });

  it.each([
    ['unparseable text', 'this is not iCalendar'],
    ['an empty text', ''],
    ['a component that never ends', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n'],
    ['a VEVENT without VCALENDAR', vevent(start).join('\r\n')],
    ['two calendars', calendar(vevent(start)) + calendar(vevent(start))],
    [
      'a missing VERSION',
      'BEGIN:VCALENDAR\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20251203T090500Z\r\nDTSTART:20251210T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR',
    ],
    ['an unknown component', calendar('BEGIN:VJOURNAL', 'UID:j', 'END:VJOURNAL')],
    ['no item', calendar()],
    ['two items', calendar(vevent(start), vevent('UID:urn:uuid:other', start))],
    ['no UID', calendar('BEGIN:VEVENT', 'DTSTAMP:20251203T090500Z', start, 'END:VEVENT')],
    ['no DTSTAMP', calendar('BEGIN:VEVENT', 'UID:a', start, 'END:VEVENT')],
    ['a VEVENT without DTSTART', calendar(vevent(end))],
    ['DTEND before DTSTART', calendar(vevent(start, 'DTEND:20251210T090000Z'))],
    ['DTEND equal to DTSTART', calendar(vevent(start, 'DTEND:20251210T100000Z'))],
    ['DTEND and DURATION together', calendar(vevent(start, end, 'DURATION:PT30M'))],
    ['a negative DURATION', calendar(vevent(start, 'DURATION:-PT30M'))],
    ['a month DURATION', calendar(vevent(start, 'DURATION:P1M'))],
    ['a malformed date', calendar(vevent('DTSTART:2025121X'))],
    ['an all-day DTSTART', calendar(vevent('DTSTART;VALUE=DATE:20251210'))],
    ['a floating DTSTART', calendar(vevent('DTSTART:20251210T100000'))],
    ['a TZID no VTIMEZONE defines', calendar(vevent('DTSTART;TZID=Mars/Olympus:20251210T100000'))],
    ['a DTSTAMP that is not a date-time', calendar(vevent('DTSTAMP;VALUE=TEXT:yesterday', start))],
    ['a malformed SEQUENCE', calendar(vevent('SEQUENCE:abc', start))],
    ['a negative SEQUENCE', calendar(vevent('SEQUENCE:-1', start))],
    ['two RRULEs', calendar(vevent(start, 'RRULE:FREQ=DAILY', 'RRULE:FREQ=WEEKLY'))],
    ['an unknown FREQ', calendar(vevent(start, 'RRULE:FREQ=SOMETIMES'))],
    ['an RDATE period', calendar(vevent(start, 'RDATE;VALUE=PERIOD:20251211T100000Z/PT1H'))],
    ['two parents', calendar(vevent(start, 'RELATED-TO:urn:a', 'RELATED-TO:urn:b'))],
    [
      'a VTODO with DURATION but no DTSTART',
      calendar('BEGIN:VTODO', 'UID:t', 'DTSTAMP:20251203T090500Z', 'DURATION:PT1H', 'END:VTODO'),
    ],
    [
      'a VTODO with DUE before DTSTART',
      calendar('BEGIN:VTODO', 'UID:t', 'DTSTAMP:20251203T090500Z', start, 'DUE:20251201T000000Z', 'END:VTODO'),
    ],
    ['a summary with a control character', calendar(vevent(start, 'SUMMARY:bell\u0007'))],
  ])('refuses %s with OACOP_INVALID_ICAL', (_what, text) => {
    expect(codeOf(text)).toBe('OACOP_INVALID_ICAL');
  });
});
