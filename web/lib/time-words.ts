// The console's one time formatter (decisions-web §30): `relative` where age matters, `absolute`
// (day, date, time and zone; the year when it is not this year) everywhere else, `timeLeft` for
// ends, `durationWords` for ISO 8601 durations. Pure: the clock and the zone are passed in, so
// tests pin both. Machine formats (file names, exports, envelopes) stay ISO and do not come here.

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An amount of time in one unit, rounded down: "12 seconds", "5 minutes", "3 days", "2 years". */
function span(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return plural(s, 'second');
  if (ms < HOUR) return plural(Math.floor(ms / MINUTE), 'minute');
  if (ms < 2 * DAY) return plural(Math.floor(ms / HOUR), 'hour');
  if (ms < 60 * DAY) return plural(Math.floor(ms / DAY), 'day');
  if (ms < 365 * DAY) return plural(Math.floor(ms / (30 * DAY)), 'month');
  return plural(Math.floor(ms / (365 * DAY)), 'year');
}

/** "just now", "12 seconds ago", "5 minutes ago", "in 3 hours". */
export function relative(ms: number, now: number): string {
  const diff = ms - now;
  if (Math.abs(diff) < 5000) return 'just now';
  return diff < 0 ? `${span(-diff)} ago` : `in ${span(diff)}`;
}

// Building an Intl.DateTimeFormat costs far more than using one, so one is kept per zone and shape.
const formats = new Map<string, Intl.DateTimeFormat>();
function format(zone: string, withYear: boolean, withTime: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${withYear}|${withTime}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      ...(withYear ? { year: 'numeric' } : {}),
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' } : {}),
    } as Intl.DateTimeFormatOptions);
    formats.set(key, f);
  }
  return f;
}

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
const partsOf = (f: Intl.DateTimeFormat, ms: number): Parts =>
  Object.fromEntries(f.formatToParts(ms).map((p) => [p.type, p.value])) as Parts;

const yearIn = (ms: number, zone: string) => partsOf(format(zone, true, false), ms).year;

/**
 * "Fri 27 Nov, 09:45 UTC", with the year when it is not `now`'s year in that zone:
 * "Tue 12 Mar 2216, 09:45 UTC". `zone` is an IANA zone; UTC unless given.
 */
export function absolute(ms: number, zone = 'UTC', now: number = Date.now()): string {
  if (!Number.isFinite(ms)) return '—';
  const withYear = yearIn(ms, zone) !== yearIn(now, zone);
  const p = partsOf(format(zone, withYear, true), ms);
  const date = `${p.weekday} ${p.day} ${p.month}${withYear ? ` ${p.year}` : ''}`;
  return `${date}, ${p.hour}:${p.minute} ${zone === 'UTC' ? 'UTC' : (p.timeZoneName ?? zone)}`;
}

/**
 * A span of time on one screen line, "Tue 15 Dec, 08:00–08:30 UTC": the start's date, both times
 * and the zone; the end's date too when it falls on another day ("Tue 15 Dec, 23:30 – Wed 16 Dec,
 * 00:30 UTC"). The year as `absolute` gives it.
 */
export function rangeWords(start: number, end: number, zone = 'UTC', now: number = Date.now()): string {
  if (!Number.isFinite(start) || !Number.isFinite(end)) return '—';
  const a = absolute(start, zone, now);
  const b = absolute(end, zone, now);
  const cut = (s: string) => s.lastIndexOf(', ');
  const [aDay, aRest] = [a.slice(0, cut(a)), a.slice(cut(a) + 2)];
  const [bDay, bRest] = [b.slice(0, cut(b)), b.slice(cut(b) + 2)];
  const aTime = aRest.split(' ')[0]!;
  return aDay === bDay ? `${aDay}, ${aTime}–${bRest}` : `${aDay}, ${aTime} – ${bDay}, ${bRest}`;
}

/** The zone's short name at that instant: "UTC", "CET", "GMT+9". */
export function zoneName(ms: number, zone: string): string {
  if (zone === 'UTC') return 'UTC';
  return partsOf(format(zone, false, true), ms).timeZoneName ?? zone;
}

/**
 * A calendar day, "Sat 28 Nov" (with the year when it is not `now`'s): for dates that name a day,
 * such as an agreement's start. A day's start in UTC is the day it names, in any zone (term dates
 * are sent that way: shared/negotiation/term-fields.ts); any other instant is read in `zone`.
 */
export function dayWords(ms: number, zone = 'UTC', now: number = Date.now()): string {
  if (!Number.isFinite(ms)) return '—';
  const z = ms % DAY === 0 ? 'UTC' : zone;
  const withYear = yearIn(ms, z) !== yearIn(now, z);
  const p = partsOf(format(z, withYear, false), ms);
  return `${p.weekday} ${p.day} ${p.month}${withYear ? ` ${p.year}` : ''}`;
}

/** The date alone, "12 Mar 2216", for ends far away. */
function dateOnly(ms: number, zone: string): string {
  const p = partsOf(format(zone, true, false), ms);
  return `${p.day} ${p.month} ${p.year}`;
}

/**
 * "45 seconds left", "45 minutes left", "3 days left", and past a month the date it ends on:
 * "until 12 Mar 2216". "time is up" once past.
 */
export function timeLeft(until: number, now: number, zone = 'UTC'): string {
  const left = until - now;
  if (left <= 0) return 'time is up';
  if (left > 31 * DAY) return `until ${dateOnly(until, zone)}`;
  return `${span(left)} left`;
}

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const DURATION_UNITS = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;

/**
 * An ISO 8601 duration in words, each part as written: "PT30M" → "30 minutes", "PT1H30M" →
 * "1 hour 30 minutes", "P1D" → "1 day", "PT60M" → "60 minutes". Anything else comes back as is.
 */
export function durationWords(iso: string): string {
  const m = DURATION.exec(iso.trim());
  if (!m || iso.trim() === 'P' || iso.trim().endsWith('T')) return iso;
  const words = DURATION_UNITS.flatMap((unit, i) => {
    const n = m[i + 1];
    return n === undefined ? [] : [plural(Number(n), unit)];
  });
  return words.length ? words.join(' ') : iso;
}

/** Minutes in words: 30 → "30 minutes", 90 → "1 hour 30 minutes", 1440 → "1 day". */
export function minutesWords(minutes: number): string {
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const words = [d ? plural(d, 'day') : '', h ? plural(h, 'hour') : '', m ? plural(m, 'minute') : ''];
  return words.filter(Boolean).join(' ') || '0 minutes';
}

/** The browser's own zone, for "local" display. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
