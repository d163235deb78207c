// Thin, pure wrappers over ical.js (v2, ESM, no host APIs): parse text into one VCALENDAR and move
// times between ical.js and epoch milliseconds. ical.js throws on bad input; here that becomes
// `OACOP_INVALID_ICAL` (OACoP §5).
import ICAL from 'ical.js';
import { fail, ok, type Result } from '../errors';
import { OacopErrorCode } from './error-codes';

export type ICalComponent = InstanceType<typeof ICAL.Component>;
export type ICalProperty = InstanceType<typeof ICAL.Property>;
export type ICalTime = InstanceType<typeof ICAL.Time>;

export const invalidIcal = (message: string, details?: Readonly<Record<string, unknown>>) =>
  fail(OacopErrorCode.INVALID_ICAL, message, details);

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Runs `body`, turning anything ical.js throws (it decodes values lazily) into a coded error. */
export function guarded<T>(what: string, body: () => Result<T>): Result<T> {
  try {
    return body();
  } catch (error) {
    return invalidIcal(`${what}: ${errorText(error)}`);
  }
}

/** Parses text that must hold exactly one component named `name` (RFC 5545 §3.4, §3.6). */
export function parseComponent(text: string, name: string): Result<ICalComponent> {
  return guarded('Unparseable iCalendar', () => {
    const jcal: unknown = ICAL.parse(text);
    // ICAL.parse gives one component as ['name', props, comps] and several as a list of them.
    if (!Array.isArray(jcal) || typeof jcal[0] !== 'string') {
      return invalidIcal(`Expected exactly one ${name.toUpperCase()} component.`);
    }
    const component = new ICAL.Component(jcal as unknown[]);
    if (component.name !== name)
      return invalidIcal(`Expected ${name.toUpperCase()}, found ${component.name.toUpperCase()}.`);
    return ok(component);
  });
}

/** A VCALENDAR with VERSION:2.0 (RFC 5545 §3.7.4). */
export function parseCalendar(text: string): Result<ICalComponent> {
  const calendar = parseComponent(text, 'vcalendar');
  if (!calendar.ok) return calendar;
  const version: unknown = calendar.value.getFirstPropertyValue('version');
  if (version !== '2.0') return invalidIcal(`VERSION must be 2.0, found ${JSON.stringify(version)}.`);
  return calendar;
}

export interface TimeReading {
  /** Floating times (no zone) are read as UTC, DATE values as UTC midnight; else refused. */
  readonly lenient: boolean;
}

/**
 * Epoch ms of a DTSTART-like value. A TZID must be defined by a VTIMEZONE in the same file (RFC
 * 5545 §3.2.19); ical.js would otherwise read it silently as floating time.
 */
export function timeToMs(time: ICalTime, property: ICalProperty, reading: TimeReading): Result<number> {
  const name = property.name.toUpperCase();
  const tzid: unknown = property.getParameter('tzid');
  const floating = time.zone === ICAL.Timezone.localTimezone;
  if (typeof tzid === 'string' && floating)
    return invalidIcal(`${name} uses TZID ${tzid}, which no VTIMEZONE defines.`);
  if (!reading.lenient) {
    if (time.isDate) return invalidIcal(`${name} is a DATE; OACoP objects need a DATE-TIME.`);
    if (floating) return invalidIcal(`${name} is a floating time; OACoP times are UTC (§2.4).`);
  }
  return ok(time.toUnixTime() * 1000);
}
