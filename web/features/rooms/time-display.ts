// Times as UTC, local or relative, the choice kept in preferences, written by
// the one formatter (web/lib/time-words.ts; decisions-web.md §30, §36): a date and a named zone,
// never a bare "05:48:14".
import type { TimeDisplay } from '@web/lib/preferences';
import { relativeTime } from '@web/lib/room-words';
import { absolute, browserZone } from '@web/lib/time-words';

/** `timeZone` is for tests; the console uses the browser's zone for "local". */
export function formatTime(ms: number, display: TimeDisplay, nowMs: number, timeZone?: string): string {
  switch (display) {
    case 'utc':
      return absolute(ms, 'UTC', nowMs);
    case 'local':
      return absolute(ms, timeZone ?? browserZone(), nowMs);
    case 'relative':
      return relativeTime(ms, nowMs);
    default: {
      const never: never = display;
      return never;
    }
  }
}

/** The full instant, for the title and `dateTime`: always there, whatever the display. */
export const fullTime = (ms: number): string => new Date(ms).toISOString();
