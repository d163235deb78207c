import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationMs, formatDuration, parseDuration } from './duration';

const M = 60_000;

describe('parseDuration (RFC 5545 §3.3.6, unsigned)', () => {
  it.each([
    ['PT30M', 30 * M],
    ['PT60M', 60 * M],
    ['PT1H', 60 * M],
    ['PT1H30M', 90 * M],
    ['PT45S', 45_000],
    ['PT1H0M5S', 3_605_000],
    ['P1D', 1440 * M],
    ['P1DT2H', 26 * 60 * M],
    ['P2W', 14 * 1440 * M],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    'P',
    'PT',
    'P1DT',
    'PT0M',
    'P0D',
    'P1Y',
    'P1M',
    'P1W2D',
    '-PT1H',
    '+PT1H',
    'PT1.5H',
    'PT30m',
    'PT2M1H',
    'P99999999999999999W',
    '30M',
  ])('refuses %s', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it.each([
    [30 * M, 'PT30M'],
    [60 * M, 'PT1H'],
    [90 * M, 'PT1H30M'],
    [3_605_000, 'PT1H0M5S'],
    [45_000, 'PT45S'],
    [1440 * M, 'P1D'],
    [26 * 60 * M, 'P1DT2H'],
    [7 * 1440 * M, 'P1W'],
    [8 * 1440 * M, 'P8D'],
  ])('writes %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([0, -1000, 1500, Number.NaN])('refuses %s', (ms) => {
    expect(() => formatDuration(ms)).toThrow(RangeError);
  });

  it('is read back exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 * 24 * 3600 }),
        (seconds) => parseDuration(formatDuration(seconds * 1000)) === seconds * 1000,
      ),
      { seed: 5545, numRuns: 500 },
    );
  });
});

describe('durationMs', () => {
  it('takes ISO text or whole minutes', () => {
    expect(durationMs('PT30M')).toBe(30 * M);
    expect(durationMs(30)).toBe(30 * M);
    expect(durationMs(0)).toBeUndefined();
    expect(durationMs(1.5)).toBeUndefined();
  });
});
