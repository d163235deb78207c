import { describe, expect, it } from 'vitest';
import { countdown } from './words';

describe('countdown', () => {
  const T = Date.parse('2026-05-03T10:00:00Z');
  it('counts down to valid_until, live up to and including it', () => {
    expect(countdown(T, T)).toBe('0 s left');
    expect(countdown(T, T + 1)).toBe('lapsed');
    expect(countdown(T + 59_999, T)).toBe('59 s left');
    expect(countdown(T + 245_000, T)).toBe('4 min 05 s left');
    expect(countdown(T + 2 * 3_600_000 + 600_000, T)).toBe('2 h 10 min left');
    expect(countdown(T + 3 * 86_400_000, T)).toBe('3 d left');
  });
});
