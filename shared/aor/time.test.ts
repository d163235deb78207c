import { describe, expect, it } from 'vitest';
import { MAX_UNIX_SECONDS, UnixSeconds, wholeSeconds } from './time';

describe('UnixSeconds (AOR §4: ts is Unix seconds)', () => {
  it.each([0, 1_734_530_000, MAX_UNIX_SECONDS])('accepts %d', (ts) => {
    expect(UnixSeconds.safeParse(ts).success).toBe(true);
  });

  it.each([
    ['milliseconds', 1_734_530_000_000],
    ['negative', -1],
    ['fractional', 1_734_530_000.5],
    ['string', '1734530000'],
    ['NaN', Number.NaN],
    ['one past the bound', MAX_UNIX_SECONDS + 1],
  ])('refuses %s (decision "ts units")', (_why, ts) => {
    expect(UnixSeconds.safeParse(ts).success).toBe(false);
  });
});

describe('wholeSeconds', () => {
  it('drops the fraction', () => {
    expect(wholeSeconds(100.999)).toBe(100);
    expect(wholeSeconds(100)).toBe(100);
  });

  it('refuses what is not a clock reading', () => {
    expect(() => wholeSeconds(Number.NaN)).toThrow(RangeError);
    expect(() => wholeSeconds(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => wholeSeconds(-1)).toThrow(RangeError);
    expect(() => wholeSeconds('1' as unknown as number)).toThrow(TypeError);
  });
});
