import { describe, expect, it } from 'vitest';
import { formatTime } from './time-display';

const at = Date.UTC(2026, 4, 1, 9, 5, 7);

describe('time display', () => {
  it('shows UTC, local (in the given zone) or relative time', () => {
    expect(formatTime(at, 'utc', at)).toBe('09:05:07 UTC');
    expect(formatTime(at, 'local', at, 'Asia/Kolkata')).toBe('14:35:07');
    expect(formatTime(at, 'relative', at + 125_000)).toBe('2 minutes ago');
    expect(formatTime(at, 'relative', at)).toBe('just now');
  });
});
