// Time is injected: production reads the system clock, tests pass their own, so no result depends on when it runs.
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The test-only setting that moves a whole test run to another instant (decisions-server.md §69):
 * `<ISO instant with its zone>@<epoch ms>` says the clock read that instant at that real moment,
 * and runs on from there at the real rate. Every process of one run (servers, the CLI, test
 * runners, the browser) gets the same value, so they all agree on the time to the millisecond.
 */
export const TEST_CLOCK_VARIABLE = 'SWITCHBOARD_TEST_CLOCK';

const TEST_CLOCK = /^((\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|([+-])(\d{2}):(\d{2})))@(\d{1,15})$/;

/** How far a test clock setting moves time, in ms; a RangeError names what is wrong with it. */
export function testClockShift(value: string): number {
  const match = TEST_CLOCK.exec(value);
  const instant = match ? Date.parse(match[1]!) : Number.NaN;
  if (!match || Number.isNaN(instant) || localDate(instant, match) !== match[2])
    throw new RangeError(
      `${TEST_CLOCK_VARIABLE} must be an instant with its zone and the real epoch ms it stands for, like 2027-03-28T00:30:00Z@${Date.now()}, got "${value}".`,
    );
  return instant - Number(match[7]);
}

/** The calendar date the instant has in its own offset: Date.parse rolls 30 February over to March. */
function localDate(instant: number, [, , , zone, sign, hours, minutes]: RegExpExecArray): string {
  const offset = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
  return new Date(instant + offset).toISOString().slice(0, 10);
}

/**
 * The system clock moved by `shiftMs`, running at the real rate. It counts from the process's
 * monotonic clock, not from Date, so a test process whose Date is already pinned
 * (scripts/pinned-clock-setup.ts) and that starts a server in-process does not move it twice.
 */
export function shiftedClock(shiftMs: number): Clock {
  if (shiftMs === 0) return systemClock;
  return { now: () => Math.round(performance.timeOrigin + performance.now()) + shiftMs };
}
