import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { formatIcalComponent, parseIcalComponent } from './ical-component';

describe('icalComponent (OACoP §2.2)', () => {
  it('reads the recurrence of the §2.2 example and writes it canonically', () => {
    const properties = unwrap(
      parseIcalComponent(
        'BEGIN:VEVENT\r\nRRULE:BYDAY=MO,WE;FREQ=WEEKLY;COUNT=5\r\nSUMMARY:ignored\r\nEND:VEVENT',
        'Event',
      ),
    );
    expect(properties.map((p) => p.name)).toEqual(['rrule']);
    expect(formatIcalComponent(properties, 'Event')).toBe(
      'BEGIN:VEVENT\nRRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO,WE\nEND:VEVENT',
    );
  });

  it('orders RRULE, EXDATE, RDATE and takes VTODO for a Task', () => {
    const text = 'BEGIN:VTODO\nRDATE:20251224T090000Z\nEXDATE;VALUE=DATE:20251217\nRRULE:FREQ=WEEKLY\nEND:VTODO';
    expect(formatIcalComponent(unwrap(parseIcalComponent(text, 'Task')), 'Task')).toBe(
      'BEGIN:VTODO\nRRULE:FREQ=WEEKLY\nEXDATE;VALUE=DATE:20251217\nRDATE:20251224T090000Z\nEND:VTODO',
    );
  });

  it('accepts a component without recurrence', () => {
    expect(unwrap(parseIcalComponent('BEGIN:VEVENT\nEND:VEVENT', 'Event'))).toEqual([]);
  });

  it.each([
    ['the truncated §2.2 example', 'BEGIN:VEVENT\nRRULE:FREQ=WEEKLY;COUNT=5...', 'Event'],
    ['bare property lines', 'RRULE:FREQ=WEEKLY', 'Event'],
    ['a VTODO for an Event', 'BEGIN:VTODO\nRRULE:FREQ=WEEKLY\nEND:VTODO', 'Event'],
    ['two components', 'BEGIN:VEVENT\nEND:VEVENT\nBEGIN:VEVENT\nEND:VEVENT', 'Event'],
    ['two RRULEs', 'BEGIN:VEVENT\nRRULE:FREQ=WEEKLY\nRRULE:FREQ=DAILY\nEND:VEVENT', 'Event'],
    ['an unknown FREQ', 'BEGIN:VEVENT\nRRULE:FREQ=SOMETIMES\nEND:VEVENT', 'Event'],
    [
      'a zoned EXDATE (no VTIMEZONE to read it)',
      'BEGIN:VEVENT\nEXDATE;TZID=Europe/Berlin:20251217T090000\nEND:VEVENT',
      'Event',
    ],
    ['a floating RDATE', 'BEGIN:VEVENT\nRDATE:20251217T090000\nEND:VEVENT', 'Event'],
  ] as const)('refuses %s with OACOP_INVALID_ICAL', (_what, text, type) => {
    expect(parseIcalComponent(text, type)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_ICAL', message: expect.stringMatching(/^icalComponent/) },
    });
  });
});
