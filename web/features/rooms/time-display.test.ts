import { describe, expect, it } from 'vitest';
import { formatTime } from './time-display';

const at = Date.UTC(2026, 4, 1, 9, 5, 7);

describe('time display', () => {
  it('shows UTC, local (in the given zone) or relative time, always with its date and zone', () => {
    expect(formatTime(at, 'utc', at)).toBe('Fri 1 May, 09:05 UTC');
    expect(formatTime(at, 'local', at, 'Asia/Kolkata')).toBe('Fri 1 May, 14:35 GMT+5:30');
    expect(formatTime(at, 'utc', Date.UTC(2027, 0, 2))).toBe('Fri 1 May 2026, 09:05 UTC');
    expect(formatTime(at, 'relative', at + 125_000)).toBe('2 minutes ago');
    expect(formatTime(at, 'relative', at)).toBe('just now');
  });
});
