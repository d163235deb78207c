import { describe, expect, it } from 'vitest';
import { dayInputText, parseDay, parseDayTime } from './day-input';

describe('days typed by people', () => {
  it('reads the console’s own form, day before month, and ISO', () => {
    expect(parseDay('28 Nov 2026')).toBe('2026-11-28');
    expect(parseDay('Sat 28 November 2026')).toBe('2026-11-28');
    expect(parseDay('  1 jul 2026 ')).toBe('2026-07-01');
    expect(parseDay('28/11/2026')).toBe('2026-11-28');
    expect(parseDay('3.4.2026')).toBe('2026-04-03');
    expect(parseDay('2026-11-28')).toBe('2026-11-28');
  });

  it('refuses what names no day: US order past the 12th, 30 February, unknown months', () => {
    expect(parseDay('11/28/2026')).toBeNull();
    expect(parseDay('30 Feb 2026')).toBeNull();
    expect(parseDay('28 Nowember 2026')).toBeNull();
    expect(parseDay('2026-13-01')).toBeNull();
    expect(parseDay('')).toBeNull();
    expect(parseDay('tomorrow')).toBeNull();
  });

  it('reads a day with a 24-hour time', () => {
    expect(parseDayTime('28 Nov 2026, 14:30')).toBe('2026-11-28T14:30');
    expect(parseDayTime('28 Nov 2026 9:05')).toBe('2026-11-28T09:05');
    expect(parseDayTime('2026-11-28T14:30')).toBe('2026-11-28T14:30');
    expect(parseDayTime('28 Nov 2026, 24:00')).toBeNull();
    expect(parseDayTime('28 Nov 2026')).toBeNull();
  });

  it('writes values back the way it reads them', () => {
    for (const v of ['2026-11-28', '2026-01-05T07:45']) {
      const text = dayInputText(v);
      expect(v.includes('T') ? parseDayTime(text) : parseDay(text)).toBe(v);
    }
    expect(dayInputText('2026-11-28')).toBe('28 Nov 2026');
    expect(dayInputText('2026-11-28T14:30')).toBe('28 Nov 2026, 14:30');
    expect(dayInputText('half typed')).toBe('half typed');
  });
});
