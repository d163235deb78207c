import { describe, expect, it } from 'vitest';
import { countChars, fitsLimit, MAX_GRANT_SECONDS, overLimitProblem, TEXT_LIMITS } from './text-limits';

describe('text limits', () => {
  it('counts code points: an emoji is one character, a lone surrogate one too', () => {
    expect(countChars('')).toBe(0);
    expect(countChars('abc')).toBe(3);
    expect(countChars('a😀b')).toBe(3);
    expect(countChars('\ud83d')).toBe(1);
    expect(countChars('\ud83dx')).toBe(2);
  });

  it('fits up to the limit and not one character over', () => {
    expect(fitsLimit('message', 'x'.repeat(TEXT_LIMITS.message))).toBe(true);
    expect(fitsLimit('message', 'x'.repeat(TEXT_LIMITS.message + 1))).toBe(false);
    expect(fitsLimit('line', '😀'.repeat(TEXT_LIMITS.line))).toBe(true);
    expect(fitsLimit('reason', 'x'.repeat(TEXT_LIMITS.reason + 1))).toBe(false);
  });

  it('says the limit and the size in words', () => {
    expect(overLimitProblem('message', 'x'.repeat(4_000))).toBeUndefined();
    expect(overLimitProblem('message', 'x'.repeat(100_000))).toBe(
      'must be at most 4,000 characters (this has 100,000)',
    );
  });

  it('lets a grant last 30 days at most', () => {
    expect(MAX_GRANT_SECONDS).toBe(2_592_000);
  });
});
