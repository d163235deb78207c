import { describe, expect, it } from 'vitest';
import { absolute, dayWords, durationWords, minutesWords, relative, timeLeft } from './time-words';

// Fri 27 Nov 2026, 09:45:36 UTC.
const NOW = Date.UTC(2026, 10, 27, 9, 45, 36);
const s = 1000;
const min = 60 * s;
const h = 60 * min;
const d = 24 * h;

describe('relative', () => {
  it('says how long ago, or how long until', () => {
    expect(relative(NOW, NOW)).toBe('just now');
    expect(relative(NOW - 12 * s, NOW)).toBe('12 seconds ago');
    expect(relative(NOW - 1 * min, NOW)).toBe('1 minute ago');
    expect(relative(NOW + 5 * min, NOW)).toBe('in 5 minutes');
    expect(relative(NOW - 3 * h, NOW)).toBe('3 hours ago');
    expect(relative(NOW - 3 * d, NOW)).toBe('3 days ago');
    expect(relative(NOW - 400 * d, NOW)).toBe('1 year ago');
  });
});

describe('absolute', () => {
  it('gives day, date, time and zone, the year only when not this year', () => {
    expect(absolute(NOW, 'UTC', NOW)).toBe('Fri 27 Nov, 09:45 UTC');
    expect(absolute(Date.UTC(2216, 2, 12, 9, 45), 'UTC', NOW)).toBe('Tue 12 Mar 2216, 09:45 UTC');
    expect(absolute(Date.UTC(2025, 11, 31, 23, 0), 'UTC', NOW)).toBe('Wed 31 Dec 2025, 23:00 UTC');
  });

  it('names the zone it shows', () => {
    expect(absolute(NOW, 'Europe/Berlin', NOW)).toBe('Fri 27 Nov, 10:45 CET');
    expect(absolute(NOW, 'Asia/Kolkata', NOW)).toMatch(/^Fri 27 Nov, 15:15 (GMT\+5:30|IST)$/);
  });

  it('counts the year in the zone shown: New Year in Tokyo is still last year in UTC', () => {
    const now = Date.UTC(2026, 11, 31, 16, 0);
    expect(absolute(now, 'Asia/Tokyo', Date.UTC(2026, 11, 31, 12, 0))).toBe('Fri 1 Jan 2027, 01:00 GMT+9');
    expect(absolute(now, 'UTC', Date.UTC(2026, 11, 31, 12, 0))).toBe('Thu 31 Dec, 16:00 UTC');
  });
});

describe('timeLeft', () => {
  it('counts down in the largest whole unit', () => {
    expect(timeLeft(NOW + 45 * s, NOW)).toBe('45 seconds left');
    expect(timeLeft(NOW + 45 * min + 30 * s, NOW)).toBe('45 minutes left');
    expect(timeLeft(NOW + 5 * h, NOW)).toBe('5 hours left');
    expect(timeLeft(NOW + 3 * d + h, NOW)).toBe('3 days left');
    expect(timeLeft(NOW, NOW)).toBe('time is up');
    expect(timeLeft(NOW - h, NOW)).toBe('time is up');
  });

  it('gives the date past a month, not millions of hours', () => {
    expect(timeLeft(Date.UTC(2216, 2, 12, 9, 45), NOW)).toBe('until 12 Mar 2216');
    expect(timeLeft(NOW + 40 * d, NOW)).toBe('until 6 Jan 2027');
  });
});

describe('durations', () => {
  it('reads ISO 8601 durations as written', () => {
    expect(durationWords('PT30M')).toBe('30 minutes');
    expect(durationWords('PT60M')).toBe('60 minutes');
    expect(durationWords('PT1H30M')).toBe('1 hour 30 minutes');
    expect(durationWords('P1D')).toBe('1 day');
    expect(durationWords('P2DT1H')).toBe('2 days 1 hour');
    expect(durationWords('PT45S')).toBe('45 seconds');
  });

  it('leaves what is not a duration alone', () => {
    expect(durationWords('soon')).toBe('soon');
    expect(durationWords('P')).toBe('P');
    expect(durationWords('PT')).toBe('PT');
  });

  it('reads minutes', () => {
    expect(minutesWords(30)).toBe('30 minutes');
    expect(minutesWords(90)).toBe('1 hour 30 minutes');
    expect(minutesWords(1440)).toBe('1 day');
    expect(minutesWords(0)).toBe('0 minutes');
  });
});

describe('dayWords', () => {
  it('names a day, the year only when not this year', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    expect(dayWords(Date.UTC(2026, 10, 28), 'UTC', now)).toBe('Sat 28 Nov');
    expect(dayWords(Date.UTC(2027, 0, 4), 'UTC', now)).toBe('Mon 4 Jan 2027');
  });

  it('reads a day’s start in UTC as that day in any zone, other instants in the zone shown', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    expect(dayWords(Date.UTC(2026, 10, 28), 'America/New_York', now)).toBe('Sat 28 Nov');
    expect(dayWords(Date.UTC(2026, 10, 28, 2), 'America/New_York', now)).toBe('Fri 27 Nov');
    expect(dayWords(Number.NaN)).toBe('—');
  });
});
