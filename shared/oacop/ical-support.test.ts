import type ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { guarded, parseCalendar, parseComponent, timeToMs } from './ical-support';
import { BERLIN, calendar, vevent } from './test-support/ics';

describe('ical.js wrappers', () => {
  it('turns anything ical.js throws into OACOP_INVALID_ICAL', () => {
    expect(
      guarded('Reading', () => {
        throw new Error('boom');
      }),
    ).toEqual({ ok: false, error: { code: 'OACOP_INVALID_ICAL', message: 'Reading: boom' } });
    expect(
      guarded('Reading', () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what ical.js may throw is not ours to choose
        throw 'text';
      }),
    ).toMatchObject({ ok: false, error: { message: 'Reading: text' } });
  });

  it('parses exactly one component of the expected name', () => {
    expect(parseComponent('BEGIN:VEVENT\r\nEND:VEVENT', 'vevent').ok).toBe(true);
    expect(parseComponent('BEGIN:VTODO\r\nEND:VTODO', 'vevent')).toMatchObject({
      ok: false,
      error: { message: 'Expected VEVENT, found VTODO.' },
    });
    expect(parseCalendar(calendar()).ok).toBe(true);
  });

  it('reads times strictly or leniently', () => {
    const root = unwrap(
      parseCalendar(
        calendar(
          BERLIN,
          vevent('DTSTART;TZID=Europe/Berlin:20251210T090000', 'DTEND:20251210T100000', 'DUE;VALUE=DATE:20251210'),
        ),
      ),
    );
    const event = root.getFirstSubcomponent('vevent')!;
    const read = (name: string, lenient: boolean) => {
      const property = event.getFirstProperty(name)!;
      return timeToMs(property.getFirstValue() as InstanceType<typeof ICAL.Time>, property, { lenient });
    };
    expect(read('dtstart', false)).toEqual({ ok: true, value: Date.UTC(2025, 11, 10, 8) });
    expect(read('dtend', false)).toMatchObject({ ok: false, error: { message: expect.stringContaining('floating') } });
    expect(read('dtend', true)).toEqual({ ok: true, value: Date.UTC(2025, 11, 10, 10) });
    expect(read('due', false)).toMatchObject({ ok: false, error: { message: expect.stringContaining('DATE') } });
    expect(read('due', true)).toEqual({ ok: true, value: Date.UTC(2025, 11, 10) });
  });
});
