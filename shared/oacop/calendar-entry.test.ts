import { describe, expect, it } from 'vitest';
import { normalizeCalendarEntry, type CalendarEntry } from './calendar-entry';

const entry: CalendarEntry = {
  id: 'urn:uuid:meet-1',
  revision: 2,
  stamp: '2025-12-03T09:05:00.000Z',
  object: { type: 'Event', title: 'Line one\r\nLine two\rthree', duration: 'PT60M', startDate: '2025-12-10T10:00:00Z' },
};

describe('normalizeCalendarEntry', () => {
  it('canonicalizes times, line ends and the duration, and derives the end', () => {
    expect(normalizeCalendarEntry(entry)).toEqual({
      ok: true,
      value: {
        id: 'urn:uuid:meet-1',
        revision: 2,
        stamp: '2025-12-03T09:05:00Z',
        object: {
          type: 'Event',
          title: 'Line one\nLine two\nthree',
          duration: 'PT1H',
          startDate: '2025-12-10T10:00:00Z',
          endDate: '2025-12-10T11:00:00Z',
        },
      },
    });
  });

  it('derives the duration from the end, and drops unmapped fields and empty dependencies', () => {
    const object = {
      type: 'Event' as const,
      startDate: '2025-12-10T10:00:00Z',
      endDate: '2025-12-10T10:45:00Z',
      dependencies: [],
      extra: 1,
    };
    expect(normalizeCalendarEntry({ ...entry, object })).toEqual({
      ok: true,
      value: {
        ...entry,
        stamp: '2025-12-03T09:05:00Z',
        object: {
          type: 'Event',
          startDate: '2025-12-10T10:00:00Z',
          endDate: '2025-12-10T10:45:00Z',
          duration: 'PT45M',
        },
      },
    });
  });

  it('accepts a Task with no time at all, or only a deadline', () => {
    expect(normalizeCalendarEntry({ ...entry, object: { type: 'Task', title: 'Report' } }).ok).toBe(true);
    expect(normalizeCalendarEntry({ ...entry, object: { type: 'Task', endDate: '2025-12-20T12:00:00Z' } }).ok).toBe(
      true,
    );
  });

  it.each([
    ['an empty id', { id: '' }],
    ['revision 0', { revision: 0 }],
    ['a fractional revision', { revision: 1.5 }],
    ['a stamp with an offset', { stamp: '2025-12-03T10:05:00+01:00' }],
    ['a stamp with milliseconds', { stamp: '2025-12-03T09:05:00.5Z' }],
    ['an Event without startDate', { object: { type: 'Event', duration: 'PT1H' } }],
    ['a Task with a duration but no startDate (RFC 5545 §3.6.2)', { object: { type: 'Task', duration: 'PT1H' } }],
    ['a duration with years', { object: { ...entry.object, duration: 'P1Y' } }],
    ['a start that is not UTC', { object: { ...entry.object, startDate: '2025-12-10T10:00:00+01:00' } }],
    ['an end that is not UTC', { object: { ...entry.object, endDate: 'soon' } }],
    [
      'an end before the start',
      { object: { type: 'Event', startDate: '2025-12-10T10:00:00Z', endDate: '2025-12-10T09:00:00Z' } },
    ],
    ['an end that disagrees with the duration', { object: { ...entry.object, endDate: '2025-12-10T10:30:00Z' } }],
    ['a control character in the description', { object: { ...entry.object, description: 'nul\u0000' } }],
    [
      'an icalComponent for the wrong component',
      { object: { ...entry.object, icalComponent: 'BEGIN:VTODO\nEND:VTODO' } },
    ],
  ])('refuses %s with OACOP_INVALID_ICAL', (_what, change) => {
    expect(normalizeCalendarEntry({ ...entry, ...change } as CalendarEntry)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_ICAL' },
    });
  });
});
