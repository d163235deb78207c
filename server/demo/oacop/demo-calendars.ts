// The OACoP demo's calendars: people in different time zones with working hours
// and a few meetings a day, and resources with opening hours and §8.2 constraints. Everything
// follows from DEMO_SEED (time and randomness are injected): the same seed gives the same calendars on every start.
import type { RoomConstraints } from '@shared/oacop/check-booking';
import { mergeIntervals, type Interval } from '@shared/oacop/intervals';
import type { AgentCalendar } from '@agents/oacop/participant-agent';
import { deriveSeed, mulberry32, randomInt } from '../prng';

export interface CalendarProfile {
  readonly key: string;
  readonly name: string;
  readonly timeZone: string;
  /** Local [start, end) hours on working days (Monday to Friday for people, every day for resources). */
  readonly hours: readonly [number, number];
  readonly weekends: boolean;
  /** Fixed meetings a day: [min, max]. */
  readonly meetingsPerDay: readonly [number, number];
  readonly resource?: RoomConstraints;
}

// Berlin 08–18, New York 08–18 and Kolkata 10–21 share 13:00–15:30 UTC in winter (14:00–15:30 in
// northern summer), so the three can meet most days, and the overlap is where the heat-map shows it.
export const DEMO_CALENDARS: readonly CalendarProfile[] = [
  {
    key: 'cal-ada',
    name: 'Ada (Berlin)',
    timeZone: 'Europe/Berlin',
    hours: [8, 18],
    weekends: false,
    meetingsPerDay: [0, 2],
  },
  {
    key: 'cal-bruno',
    name: 'Bruno (New York)',
    timeZone: 'America/New_York',
    hours: [8, 18],
    weekends: false,
    meetingsPerDay: [0, 2],
  },
  {
    key: 'cal-chitra',
    name: 'Chitra (Kolkata)',
    timeZone: 'Asia/Kolkata',
    hours: [10, 21],
    weekends: false,
    meetingsPerDay: [0, 2],
  },
  {
    key: 'room-atlas',
    name: 'Room Atlas (Berlin)',
    timeZone: 'Europe/Berlin',
    hours: [7, 21],
    weekends: true,
    meetingsPerDay: [0, 1],
    resource: { minDuration: 'PT30M', requiresCleaningGap: 15 },
  },
  {
    key: 'scanner-1',
    name: 'Scanner 1 (Berlin)',
    timeZone: 'Europe/Berlin',
    hours: [7, 19],
    weekends: false,
    meetingsPerDay: [0, 0],
    resource: { minDuration: 'PT60M', requiresCleaningGap: 30 },
  },
];

const STEP_MS = 15 * 60_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** A seeded calendar: closed outside local hours, plus that day's fixed meetings. */
export function demoCalendar(seed: number, profile: CalendarProfile): AgentCalendar {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: profile.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const meetings = new Map<string, [number, number][]>();
  const meetingsOn = (date: string): [number, number][] => {
    let list = meetings.get(date);
    if (list === undefined) {
      const rng = mulberry32(deriveSeed(seed, 'oacop', profile.key, date));
      const [open, close] = profile.hours;
      list = [];
      for (let i = randomInt(rng, profile.meetingsPerDay[0], profile.meetingsPerDay[1]); i > 0; i--) {
        const length = randomInt(rng, 2, 4) * 15;
        const start = randomInt(rng, open * 4, close * 4 - length / 15) * 15;
        list.push([start, start + length]);
      }
      meetings.set(date, list);
    }
    return list;
  };
  const isBusy = (t: number): boolean => {
    const parts = Object.fromEntries(format.formatToParts(t).map((p) => [p.type, p.value]));
    const day = WEEKDAYS.indexOf(parts.weekday ?? '');
    if (!profile.weekends && (day === 0 || day === 6)) return true;
    const minute = Number(parts.hour) * 60 + Number(parts.minute);
    if (minute < profile.hours[0] * 60 || minute >= profile.hours[1] * 60) return true;
    return meetingsOn(`${parts.year}-${parts.month}-${parts.day}`).some(([s, e]) => minute >= s && minute < e);
  };
  return {
    busy(from: number, to: number): Interval[] {
      const busy: Interval[] = [];
      for (let t = Math.floor(from / STEP_MS) * STEP_MS; t < to; t += STEP_MS)
        if (isBusy(t)) busy.push({ start: t, end: t + STEP_MS });
      return mergeIntervals(busy);
    },
  };
}
