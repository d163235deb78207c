import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeCalendarEntry, type CalendarEntry } from './calendar-entry';
import { fromICalendar } from './from-icalendar';
import { formatDuration } from './duration';
import { PRODID, toICalendar } from './to-icalendar';
import { formatUtc } from './utc-time';

// OACoP §3.3's confirmation of §3.1's proposal (object from §2.2), as a calendar entry.
const workshop: CalendarEntry = {
  id: 'urn:uuid:meet-1',
  revision: 2,
  stamp: '2025-12-03T09:05:00Z',
  object: {
    type: 'Event',
    title: 'Strategy Workshop',
    description: 'Planning Q1 2026',
    duration: 'PT30M',
    location: 'Virtual',
    startDate: '2025-12-10T10:00:00Z',
    endDate: '2025-12-10T10:30:00Z',
  },
};

const lines = (ics: string) => ics.split('\r\n');

describe('toICalendar (OACoP §2.4)', () => {
  it("writes the table's mapping, times in basic UTC format", () => {
    expect(toICalendar(workshop)).toBe(
      [
        'BEGIN:VCALENDAR',
        `PRODID:${PRODID}`,
        'VERSION:2.0',
        'BEGIN:VEVENT',
        'UID:urn:uuid:meet-1',
        'DTSTAMP:20251203T090500Z',
        'SEQUENCE:2',
        'SUMMARY:Strategy Workshop',
        'DESCRIPTION:Planning Q1 2026',
        'LOCATION:Virtual',
        'DTSTART:20251210T100000Z',
        'DURATION:PT30M',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
  });

  it('writes DTEND when the object has an end but no duration, never both', () => {
    const { duration: _d, ...object } = workshop.object;
    const ics = toICalendar({ ...workshop, object });
    expect(lines(ics)).toContain('DTEND:20251210T103000Z');
    expect(ics).not.toContain('DURATION');
  });

  it('maps a Task to a VTODO whose endDate is DUE, with its relations as RELATED-TO', () => {
    const ics = toICalendar({
      id: 'urn:uuid:task-1',
      revision: 1,
      stamp: '2025-12-03T09:05:00Z',
      object: {
        type: 'Task',
        title: 'Report',
        parentTaskId: 'urn:uuid:project-alpha',
        dependencies: ['urn:uuid:blocking-task-A'],
        endDate: '2025-12-20T12:00:00Z',
      },
    });
    expect(lines(ics)).toEqual(
      expect.arrayContaining([
        'BEGIN:VTODO',
        'DUE:20251220T120000Z',
        'RELATED-TO;RELTYPE=PARENT:urn:uuid:project-alpha',
        'RELATED-TO;RELTYPE=DEPENDS-ON:urn:uuid:blocking-task-A',
        'END:VTODO',
      ]),
    );
    expect(ics).not.toContain('DTEND');
  });

  it('keeps a recurring event one series: RRULE and EXDATE, no expansion (§2.4 note)', () => {
    const ics = toICalendar({
      ...workshop,
      object: {
        ...workshop.object,
        icalComponent: 'BEGIN:VEVENT\nRRULE:FREQ=WEEKLY;COUNT=5\nEXDATE:20251217T100000Z\nEND:VEVENT',
      },
    });
    expect(lines(ics)).toEqual(expect.arrayContaining(['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE:20251217T100000Z']));
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });

  it('escapes TEXT and folds long lines at 75 octets without splitting characters', () => {
    const title = `Budget, plan; review\\notes\nday 2 ${'Überstunden 😀 '.repeat(8)}`;
    const ics = toICalendar({ ...workshop, object: { ...workshop.object, title } });
    expect(ics).toContain('SUMMARY:Budget\\, plan\\; review\\\\notes\\nday 2 ');
    for (const line of lines(ics)) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(fromICalendar(ics)).toMatchObject({ ok: true, value: { object: { title } } });
  });

  it('marks a cancelled entry STATUS:CANCELLED', () => {
    expect(lines(toICalendar({ ...workshop, cancelled: true }))).toContain('STATUS:CANCELLED');
  });

  it('throws OACOP_INVALID_ICAL for an entry with no iCalendar form', () => {
    const { startDate: _s, endDate: _e, ...unscheduled } = workshop.object;
    expect(() => toICalendar({ ...workshop, object: unscheduled })).toThrow(
      expect.objectContaining({ code: 'OACOP_INVALID_ICAL' }),
    );
  });
});

describe('the round trip OACoP → iCalendar → OACoP', () => {
  it('gives back the spec example', () => {
    expect(fromICalendar(toICalendar(workshop))).toEqual({ ok: true, value: workshop });
  });

  it('gives back the normal form of any entry (property, seeded)', () => {
    const special = fc.constantFrom(
      ',',
      ';',
      '\n',
      '\\',
      ':',
      '"',
      ' ',
      '\t',
      'é',
      'ß',
      '日本',
      '😀',
      'a\u0301',
      '\u200b',
    );
    const text = fc
      .array(fc.oneof(special, fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ maxLength: 90 })), {
        maxLength: 12,
      })
      .map((parts) => parts.join(''))
      // RFC 5545 TEXT has no other control characters (decisions: "TEXT").
      // eslint-disable-next-line no-control-regex
      .filter((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s));
    const second = fc
      .integer({ min: Date.UTC(1970, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 })
      .map((s) => formatUtc(s * 1000));
    const uri = fc.constantFrom('urn:uuid:a', 'urn:uuid:b', 'urn:uuid:project-alpha', 'https://example.com/task/1');
    const rrule = fc.constantFrom(
      'RRULE:FREQ=WEEKLY;COUNT=5',
      'RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20260101T000000Z',
      'RRULE:FREQ=MONTHLY;BYDAY=1MO',
    );
    const entry = fc
      .record(
        {
          type: fc.constantFrom('Event' as const, 'Task' as const),
          title: text,
          description: text,
          location: text,
          start: fc.integer({ min: Date.UTC(1970, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }),
          minutes: fc.integer({ min: 1, max: 60 * 24 * 30 }),
          scheduled: fc.boolean(),
          withDuration: fc.boolean(),
          rrule,
          parentTaskId: uri,
          dependencies: fc.uniqueArray(uri, { maxLength: 3 }),
          id: fc.constantFrom('urn:uuid:meet-1', 'urn:uuid:task-1', 'https://example.com/thread/42'),
          revision: fc.integer({ min: 1, max: 1_000_000 }),
          stamp: second,
          cancelled: fc.boolean(),
        },
        {
          requiredKeys: [
            'type',
            'start',
            'minutes',
            'scheduled',
            'withDuration',
            'id',
            'revision',
            'stamp',
            'cancelled',
          ],
        },
      )
      .map((r): CalendarEntry => {
        const scheduled = r.type === 'Event' || r.scheduled;
        const startMs = r.start * 1000;
        const endMs = startMs + r.minutes * 60_000;
        return {
          id: r.id,
          revision: r.revision,
          stamp: r.stamp,
          ...(r.cancelled ? { cancelled: true } : {}),
          object: {
            type: r.type,
            ...(r.title === undefined ? {} : { title: r.title }),
            ...(r.description === undefined ? {} : { description: r.description }),
            ...(r.location === undefined ? {} : { location: r.location }),
            ...(scheduled
              ? { startDate: formatUtc(startMs), endDate: formatUtc(endMs), duration: formatDuration(endMs - startMs) }
              : {}),
            ...(!scheduled && r.withDuration ? { endDate: formatUtc(endMs) } : {}),
            ...(r.rrule === undefined
              ? {}
              : {
                  icalComponent: `BEGIN:${r.type === 'Event' ? 'VEVENT' : 'VTODO'}\n${r.rrule}\nEND:${r.type === 'Event' ? 'VEVENT' : 'VTODO'}`,
                }),
            ...(r.parentTaskId === undefined ? {} : { parentTaskId: r.parentTaskId }),
            ...(r.dependencies === undefined || r.dependencies.length === 0 ? {} : { dependencies: r.dependencies }),
          },
        };
      });
    fc.assert(
      fc.property(entry, (e) => {
        expect(normalizeCalendarEntry(e)).toEqual({ ok: true, value: e });
        expect(fromICalendar(toICalendar(e))).toEqual({ ok: true, value: e });
        const { duration: _d, ...withoutDuration } = e.object;
        expect(fromICalendar(toICalendar({ ...e, object: withoutDuration }))).toEqual({ ok: true, value: e });
      }),
      { seed: 5545, numRuns: 300 },
    );
  });
});
