// OACoP §2.4: every time is UTC. Inside shared/oacop a time is epoch milliseconds; at the edges
// (messages, UI) it is an ISO 8601 extended string ending in `Z`.

/**
 * Epoch ms of a UTC date-time string, or `undefined` when it is not one: RFC 3339 §5.6 `date-time`
 * restricted to the `Z` offset (docs/decisions-oacop.md, "UTC only"), so other offsets, a lowercase
 * `z`, impossible dates (Feb 30) and leap seconds (`:60`, which epoch ms cannot hold) are refused.
 */
export function parseUtc(text: string): number | undefined {
  // Read by hand rather than by regular expression: availability parsing is on a hot path.
  const n = text.length;
  if (n < 20 || text.charCodeAt(n - 1) !== Z) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let millis = 0;
  if (n > 20) {
    const fraction = n - 21;
    if (text[19] !== '.' || fraction < 1 || fraction > 9 || digits(text, 20, fraction) < 0) return undefined;
    millis = digits(text, 20, Math.min(fraction, 3)) * 10 ** (3 - Math.min(fraction, 3));
  }
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  // Date.UTC reads years 0–99 as 1900–1999; shifting by one 400-year Gregorian cycle avoids that.
  if (year < 100) return Date.UTC(year + 400, month - 1, day, hour, minute, second, millis) - GREGORIAN_CYCLE_MS;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}

const Z = 0x5a;
const GREGORIAN_CYCLE_MS = 146_097 * 86_400_000;

/** The decimal number in `text[from, from + length)`, or -1 if any character is not a digit. */
function digits(text: string, from: number, length: number): number {
  let value = 0;
  for (let i = from; i < from + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The canonical edge form: `2025-12-10T09:00:00Z`, with `.sss` only when milliseconds are not 0. */
export function formatUtc(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`Not a finite time: ${ms}`);
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

export const MINUTE_MS = 60_000;
