import { describe, expect, it } from 'vitest';
import { shiftedClock, systemClock, testClockShift } from './clock';

describe('the test clock setting', () => {
  it('moves time to the instant it names, as of the real moment it names', () => {
    const anchor = Date.parse('2026-11-28T08:00:00Z');
    expect(testClockShift(`2027-03-28T00:55:00Z@${anchor}`)).toBe(Date.parse('2027-03-28T00:55:00Z') - anchor);
    expect(testClockShift(`2027-03-28T01:55:00+01:00@${anchor}`)).toBe(Date.parse('2027-03-28T00:55:00Z') - anchor);
    expect(testClockShift(`2026-11-28T08:00:00.250Z@${anchor}`)).toBe(250);
  });

  it('refuses an instant without its zone, an impossible date or a missing anchor, naming the setting', () => {
    for (const bad of [
      '2027-03-28T00:55:00@1',
      '2027-02-30T00:00:00Z@1',
      '2027-03-28T00:55:00Z',
      'tomorrow@1',
      '2027-03-28T00:55:00Z@-5',
      '',
    ])
      expect(() => testClockShift(bad), bad).toThrow(/SWITCHBOARD_TEST_CLOCK must be an instant with its zone/);
  });

  it('runs a moved clock at the real rate, the unmoved one being the system clock', () => {
    expect(shiftedClock(0)).toBe(systemClock);
    const day = 86_400_000;
    const clock = shiftedClock(day);
    // Real time, whatever a pinned run did to Date in this process.
    const real = () => performance.timeOrigin + performance.now();
    const before = real();
    const read = clock.now();
    const after = real();
    expect(read).toBeGreaterThanOrEqual(Math.floor(before) + day);
    expect(read).toBeLessThanOrEqual(Math.ceil(after) + day);
  });
});
