// Times as UTC, local or relative (UX.md "time zones"), the choice kept in preferences.
import type { TimeDisplay } from '@web/lib/preferences';
import { relativeTime } from './words';

const pad = (n: number) => String(n).padStart(2, '0');

/** `timeZone` is for tests; the console uses the browser's zone for "local". */
export function formatTime(ms: number, display: TimeDisplay, nowMs: number, timeZone?: string): string {
  switch (display) {
    case 'utc': {
      const d = new Date(ms);
      return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
    }
    case 'local':
      return new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) }).format(ms);
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
