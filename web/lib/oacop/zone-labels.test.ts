import { describe, expect, it } from 'vitest';
import { localDateTime, localHour, localTime, zoneCity } from './zone-labels';

const at = Date.parse('2026-11-23T13:00:00Z');

describe('zone labels', () => {
  it("shows one instant in each person's zone, daylight saving included", () => {
    expect(localTime(at, 'Europe/Berlin')).toBe('14:00');
    expect(localTime(at, 'America/New_York')).toBe('08:00');
    expect(localTime(at, 'Asia/Kolkata')).toBe('18:30');
    expect(localTime(Date.parse('2026-07-01T13:00:00Z'), 'Europe/Berlin')).toBe('15:00');
    expect(localHour(at, 'Asia/Kolkata')).toBe(18);
    expect(localHour(Date.parse('2026-11-23T23:00:00Z'), 'Europe/Berlin')).toBe(0);
  });

  it('names the day where the person is', () => {
    expect(localDateTime(Date.parse('2026-11-23T23:30:00Z'), 'Asia/Kolkata')).toBe('Tue 24 Nov, 05:00');
  });

  it('turns a zone into a city', () => {
    expect(zoneCity('America/New_York')).toBe('New York');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});
