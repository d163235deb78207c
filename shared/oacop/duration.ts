// OACoP §2.2 carries `duration` as an "ISO 8601 Duration" and §2.4 maps it to iCalendar DURATION.
// The accepted grammar is the part both agree on: RFC 5545 §3.3.6 `dur-value` without a sign
// (weeks, or days and/or a time part). Years and months are refused because their length depends
// on the calendar (docs/decisions-oacop.md, "Durations").
import { MINUTE_MS } from './utc-time';

const DURATION =
  /^P(?:(\d+)W|(\d+)D(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?|T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)$/;
const SECOND_MS = 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

/** Milliseconds of a positive duration such as `PT30M`, `PT1H30M`, `P1D`, `P2W`; else `undefined`. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (m === null) return undefined;
  const n = (i: number): number => Number(m[i] ?? 0);
  const ms =
    n(1) * WEEK_MS + n(2) * DAY_MS + (n(3) + n(6)) * HOUR_MS + (n(4) + n(7)) * MINUTE_MS + (n(5) + n(8)) * SECOND_MS;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/**
 * The canonical form of a whole-second duration, the one exported to iCalendar: weeks when it is a
 * whole number of weeks, else days and a time part (`P1DT2H`, `PT1H30M`, `PT45S`).
 */
export function formatDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms <= 0 || ms % SECOND_MS !== 0) {
    throw new RangeError(`Not a positive whole-second duration: ${ms}`);
  }
  if (ms % WEEK_MS === 0) return `P${ms / WEEK_MS}W`;
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((ms % HOUR_MS) / MINUTE_MS);
  const seconds = (ms % MINUTE_MS) / SECOND_MS;
  // RFC 5545 §3.3.6: `dur-hour = 1*DIGIT "H" [dur-minute]`, so hours and seconds need the minutes between.
  const showMinutes = minutes > 0 || (hours > 0 && seconds > 0);
  const time = `${hours > 0 ? `${hours}H` : ''}${showMinutes ? `${minutes}M` : ''}${seconds > 0 ? `${seconds}S` : ''}`;
  return `P${days > 0 ? `${days}D` : ''}${time === '' ? '' : `T${time}`}`;
}

/** A duration given as ISO text or as whole minutes (the form UIs and room agents use). */
export type DurationInput = string | number;

export function durationMs(input: DurationInput): number | undefined {
  if (typeof input === 'string') return parseDuration(input);
  return Number.isSafeInteger(input) && input > 0 ? input * MINUTE_MS : undefined;
}
