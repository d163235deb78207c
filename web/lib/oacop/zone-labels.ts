// Times are UTC inside and shown in each person's zone. Pure over Intl, so the same
// instant reads "09:00" in Berlin and "03:00" in New York side by side.

/** The operator's own IANA zone, from this browser. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, withDay: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withDay}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(withDay ? { weekday: 'short', day: 'numeric', month: 'short' } : {}),
    });
    formatters.set(key, f);
  }
  return f;
}

/** "14:30" in `timeZone`. */
export const localTime = (at: number, timeZone: string): string => formatter(timeZone, false).format(at);

/** "Wed 10 Dec, 14:30" in `timeZone`. */
export const localDateTime = (at: number, timeZone: string): string => formatter(timeZone, true).format(at);

/** The hour of day (0–23) at `at` in `timeZone`. */
export function localHour(at: number, timeZone: string): number {
  return (
    Number(
      formatter(timeZone, false)
        .formatToParts(at)
        .find((p) => p.type === 'hour')?.value ?? '0',
    ) % 24
  );
}

/** "Europe/Berlin" → "Berlin"; "America/New_York" → "New York". */
export const zoneCity = (timeZone: string): string => (timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ');
