import { describe, expect, it } from 'vitest';
import { busyFromICalendar, MAX_OCCURRENCES } from './busy-from-icalendar';
import type { Slot } from './messages';
import { BERLIN, calendar, vevent } from './test-support/ics';

const december = { start: '2025-12-01T00:00:00Z', end: '2026-01-01T00:00:00Z' };
const busy = (text: string, window: Slot = december) => {
  const result = busyFromICalendar(text, window);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
};
const slot = (start: string, end: string): Slot => ({ start, end });

describe('busyFromICalendar', () => {
  it('reads plain events, merged and clipped to the window', () => {
    const text = calendar(
      vevent('UID:a', 'DTSTART:20251210T090000Z', 'DTEND:20251210T100000Z'),
      vevent('UID:b', 'DTSTART:20251210T093000Z', 'DURATION:PT1H'),
      vevent('UID:c', 'DTSTART:20251130T230000Z', 'DTEND:20251201T010000Z'),
      vevent('UID:d', 'DTSTART:20260110T090000Z', 'DTEND:20260110T100000Z'),
    );
    expect(busy(text)).toEqual([
      slot('2025-12-01T00:00:00Z', '2025-12-01T01:00:00Z'),
      slot('2025-12-10T09:00:00Z', '2025-12-10T10:30:00Z'),
    ]);
  });

  it('skips transparent and cancelled events (RFC 5545 §3.8.2.7, §3.8.1.11)', () => {
    const text = calendar(
      vevent('UID:a', 'DTSTART:20251210T090000Z', 'DTEND:20251210T100000Z', 'TRANSP:TRANSPARENT'),
      vevent('UID:b', 'DTSTART:20251211T090000Z', 'DTEND:20251211T100000Z', 'STATUS:CANCELLED'),
    );
    expect(busy(text)).toEqual([]);
  });

  it('expands a weekly series inside the window, with EXDATE, a moved and a cancelled occurrence', () => {
    const text = calendar(
      vevent(
        'UID:weekly',
        'DTSTART:20251103T090000Z',
        'DTEND:20251103T100000Z',
        'RRULE:FREQ=WEEKLY',
        'EXDATE:20251208T090000Z',
      ),
      vevent('UID:weekly', 'RECURRENCE-ID:20251215T090000Z', 'DTSTART:20251216T140000Z', 'DTEND:20251216T150000Z'),
      vevent(
        'UID:weekly',
        'RECURRENCE-ID:20251222T090000Z',
        'DTSTART:20251222T090000Z',
        'DTEND:20251222T100000Z',
        'STATUS:CANCELLED',
      ),
    );
    expect(busy(text)).toEqual([
      slot('2025-12-01T09:00:00Z', '2025-12-01T10:00:00Z'),
      slot('2025-12-16T14:00:00Z', '2025-12-16T15:00:00Z'),
      slot('2025-12-29T09:00:00Z', '2025-12-29T10:00:00Z'),
    ]);
  });

  it('includes an occurrence moved into the window from after it', () => {
    const text = calendar(
      vevent('UID:w', 'DTSTART:20251201T090000Z', 'DTEND:20251201T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=10'),
      vevent('UID:w', 'RECURRENCE-ID:20260105T090000Z', 'DTSTART:20251231T090000Z', 'DTEND:20251231T100000Z'),
    );
    expect(busy(text, slot('2025-12-30T00:00:00Z', '2026-01-01T00:00:00Z'))).toEqual([
      slot('2025-12-31T09:00:00Z', '2025-12-31T10:00:00Z'),
    ]);
  });

  it('reads an override whose series is not in the file as a plain event', () => {
    expect(
      busy(
        calendar(
          vevent('UID:x', 'RECURRENCE-ID:20251215T090000Z', 'DTSTART:20251215T110000Z', 'DTEND:20251215T120000Z'),
        ),
      ),
    ).toEqual([slot('2025-12-15T11:00:00Z', '2025-12-15T12:00:00Z')]);
  });

  it("converts zoned times through the file's VTIMEZONE, across daylight saving", () => {
    const text = calendar(
      BERLIN,
      vevent(
        'UID:z',
        'DTSTART;TZID=Europe/Berlin:20250324T090000',
        'DTEND;TZID=Europe/Berlin:20250324T100000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
      ),
    );
    expect(busy(text, slot('2025-03-01T00:00:00Z', '2025-04-01T00:00:00Z'))).toEqual([
      slot('2025-03-24T08:00:00Z', '2025-03-24T09:00:00Z'),
      slot('2025-03-31T07:00:00Z', '2025-03-31T08:00:00Z'),
    ]);
  });

  it('takes all-day events as whole UTC days and floating times as UTC', () => {
    const text = calendar(
      vevent('UID:day', 'DTSTART;VALUE=DATE:20251224'),
      vevent('UID:days', 'DTSTART;VALUE=DATE:20251227', 'DTEND;VALUE=DATE:20251229'),
      vevent('UID:f', 'DTSTART:20251210T090000', 'DTEND:20251210T100000'),
    );
    expect(busy(text)).toEqual([
      slot('2025-12-10T09:00:00Z', '2025-12-10T10:00:00Z'),
      slot('2025-12-24T00:00:00Z', '2025-12-25T00:00:00Z'),
      slot('2025-12-27T00:00:00Z', '2025-12-29T00:00:00Z'),
    ]);
  });

  it('ignores events that take no time and events without UID still count', () => {
    const text = calendar(
      'BEGIN:VEVENT',
      'DTSTAMP:20251203T090500Z',
      'DTSTART:20251210T090000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'DTSTAMP:20251203T090500Z',
      'DTSTART:20251211T090000Z',
      'DTEND:20251211T100000Z',
      'END:VEVENT',
    );
    expect(busy(text)).toEqual([slot('2025-12-11T09:00:00Z', '2025-12-11T10:00:00Z')]);
  });

  it('reads VFREEBUSY periods except FREE ones (RFC 5545 §3.8.2.6)', () => {
    const text = calendar(
      'BEGIN:VFREEBUSY',
      'UID:fb',
      'DTSTAMP:20251203T090500Z',
      'FREEBUSY:20251210T090000Z/PT1H,20251211T090000Z/20251211T093000Z',
      'FREEBUSY;FBTYPE=FREE:20251212T090000Z/PT1H',
      'FREEBUSY;FBTYPE=BUSY-TENTATIVE:20251213T090000Z/PT30M',
      'END:VFREEBUSY',
    );
    expect(busy(text)).toEqual([
      slot('2025-12-10T09:00:00Z', '2025-12-10T10:00:00Z'),
      slot('2025-12-11T09:00:00Z', '2025-12-11T09:30:00Z'),
      slot('2025-12-13T09:00:00Z', '2025-12-13T09:30:00Z'),
    ]);
  });

  it('refuses a recurrence that runs away before the window', () => {
    const text = calendar(vevent('UID:r', 'DTSTART:20250101T000000Z', 'DURATION:PT1S', 'RRULE:FREQ=MINUTELY'));
    expect(busyFromICalendar(text, december, { maxOccurrences: 500 })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_ICAL', message: expect.stringContaining('500') },
    });
    expect(MAX_OCCURRENCES).toBeGreaterThan(68 * 366);
  });

  it.each([
    ['unparseable text', 'nonsense'],
    [
      'an unknown TZID',
      calendar(vevent('DTSTART;TZID=Mars/Olympus:20251210T090000', 'DTEND;TZID=Mars/Olympus:20251210T100000')),
    ],
    [
      'an unknown TZID in a series',
      calendar(vevent('DTSTART;TZID=Mars/Olympus:20251210T090000', 'RRULE:FREQ=DAILY;COUNT=2')),
    ],
    [
      'an unknown TZID in an override',
      calendar(
        vevent('UID:w', 'DTSTART:20251201T090000Z', 'RRULE:FREQ=DAILY;COUNT=2'),
        vevent('UID:w', 'RECURRENCE-ID;TZID=Mars/Olympus:20260105T090000', 'DTSTART:20251231T090000Z'),
      ),
    ],
    [
      'an unknown TZID in a lone override',
      calendar(vevent('UID:w', 'RECURRENCE-ID:20260105T090000Z', 'DTSTART;TZID=Mars/Olympus:20251231T090000')),
    ],
    [
      'an unknown TZID at an end',
      calendar(vevent('DTSTART:20251210T090000Z', 'DTEND;TZID=Mars/Olympus:20251210T100000')),
    ],
    [
      'an unknown TZID in FREEBUSY',
      calendar('BEGIN:VFREEBUSY', 'FREEBUSY;TZID=Mars/Olympus:20251210T090000/PT1H', 'END:VFREEBUSY'),
    ],
    ['a VEVENT without DTSTART', calendar(vevent('DTEND:20251210T100000Z'))],
  ])('refuses %s with OACOP_INVALID_ICAL', (_what, text) => {
    expect(busyFromICalendar(text, december)).toMatchObject({ ok: false, error: { code: 'OACOP_INVALID_ICAL' } });
  });

  it('refuses a bad window', () => {
    expect(busyFromICalendar(calendar(), { start: december.end, end: december.start })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
  });
});
