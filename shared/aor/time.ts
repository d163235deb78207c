// AOR §4: `ts` is a Unix timestamp in seconds. Every time field of the protocol (`ts`,
// `deadline`, `expires_at`, heartbeat `ts`) uses the same unit and the same bounds.
import { z } from 'zod';

/**
 * 2286-11-20T17:46:39Z. Anything larger is refused: a millisecond timestamp of any date after
 * 1970-04-26 exceeds it, so the commonest unit mistake fails loudly instead of meaning "never".
 */
export const MAX_UNIX_SECONDS = 9_999_999_999;

export const UnixSeconds = z
  .int('must be an integer number of seconds')
  .min(0, 'must not be negative')
  .max(MAX_UNIX_SECONDS, `must be Unix seconds (at most ${MAX_UNIX_SECONDS}), not milliseconds`);

/**
 * The whole Unix second that `now` (seconds, possibly fractional) falls in. Injected clocks may
 * carry a fraction; comparisons against protocol times use the whole second they belong to.
 */
export function wholeSeconds(now: number): number {
  if (typeof now !== 'number') throw new TypeError('now must be a number of Unix seconds');
  if (!Number.isFinite(now) || now < 0) throw new RangeError(`now must be finite Unix seconds, got ${now}`);
  return Math.floor(now);
}
