import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUtc, parseUtc } from './utc-time';

describe('parseUtc', () => {
  it.each([
    ['2025-12-10T09:00:00Z', Date.UTC(2025, 11, 10, 9)],
    ['2025-12-10T09:00:00.5Z', Date.UTC(2025, 11, 10, 9, 0, 0, 500)],
    ['2025-12-10T09:00:00.123456Z', Date.UTC(2025, 11, 10, 9, 0, 0, 123)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29)],
    ['0050-01-01T00:00:00Z', new Date('0050-01-01T00:00:00Z').getTime()],
  ])('reads %s', (text, ms) => {
    expect(parseUtc(text)).toBe(ms);
  });

  it.each([
    '2025-12-10T09:00:00+01:00',
    '2025-12-10T09:00:00z',
    '2025-12-10 09:00:00Z',
    '20251210T090000Z',
    '2025-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-00-01T00:00:00Z',
    '2025-12-00T00:00:00Z',
    '2025-12-10T24:00:00Z',
    '2025-12-10T23:60:00Z',
    '2016-12-31T23:59:60Z',
    '2025-12-10T09:00:00.Z',
    '2025-12-10T09:00:00.1234567891Z',
    '2025-12-10T09:00:00,5Z',
    '2025-12-10T09:00:00.5xZ',
    '2025-12-10T0a:00:00Z',
    '+2025-12-10T09:00:00Z',
    '2025-12-10T09:00Z',
  ])('refuses %s', (text) => {
    expect(parseUtc(text)).toBeUndefined();
  });
});

describe('formatUtc', () => {
  it('writes whole seconds without a fraction and milliseconds with one', () => {
    expect(formatUtc(Date.UTC(2025, 11, 10, 9))).toBe('2025-12-10T09:00:00Z');
    expect(formatUtc(Date.UTC(2025, 11, 10, 9, 0, 0, 250))).toBe('2025-12-10T09:00:00.250Z');
  });

  it('refuses what is not a time', () => {
    expect(() => formatUtc(Number.NaN)).toThrow(RangeError);
  });

  it('round-trips with parseUtc', () => {
    const ms = fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(ms, (t) => parseUtc(formatUtc(t)) === t),
      { seed: 2025, numRuns: 500 },
    );
  });
});
