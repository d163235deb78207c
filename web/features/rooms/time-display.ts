// Times as UTC, local or relative (UX.md "time zones"), the choice kept in preferences.
import type { TimeDisplay } from '@web/lib/preferences';
import { relativeTime } from '@web/lib/room-words';

const pad = (n: number) => String(n).padStart(2, '0');

// Building an Intl.DateTimeFormat costs far more than formatting with one (it showed as the
// largest cost of rendering timeline rows), so one is kept per zone.
const localFormats = new Map<string, Intl.DateTimeFormat>();
function localFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = localFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    localFormats.set(key, format);
  }
  return format;
}

/** `timeZone` is for tests; the console uses the browser's zone for "local". */
export function formatTime(ms: number, display: TimeDisplay, nowMs: number, timeZone?: string): string {
  switch (display) {
    case 'utc': {
      const d = new Date(ms);
      return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
    }
    case 'local':
      return localFormat(timeZone).format(ms);
    case 'relative':
      return relativeTime(ms, nowMs);
    default: {
      const never: never = display;
      return never;
    }
  }
}

/** The full instant, for the title: always there, whatever the display. */
export const fullTime = (ms: number): string => new Date(ms).toISOString();
