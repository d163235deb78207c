// OACoP §2.2 `icalComponent`: "for complex repetitions". It must be one VEVENT (Event) or VTODO
// (Task) component; its RRULE, EXDATE and RDATE are carried into the exported item as one series
// (§2.4 note: never expanded here). Other properties in it are ignored, because the object's own
// fields are authoritative (docs/decisions-oacop.md, "icalComponent").
import ICAL from 'ical.js';
import { ok, type Result } from '../errors';
import { guarded, invalidIcal, parseComponent, type ICalComponent, type ICalProperty } from './ical-support';

export type ItemType = 'Event' | 'Task';

// OACoP §2.4 row `object.type` → COMPONENT.
export const COMPONENT_NAME = { Event: 'vevent', Task: 'vtodo' } as const satisfies Record<ItemType, string>;

const RECURRENCE = ['rrule', 'exdate', 'rdate'] as const;

/** The recurrence properties of `text`, or `OACOP_INVALID_ICAL`. */
export function parseIcalComponent(text: string, type: ItemType): Result<ICalProperty[]> {
  const parsed = parseComponent(text, COMPONENT_NAME[type]);
  if (!parsed.ok) return invalidIcal(`icalComponent: ${parsed.error.message}`);
  return recurrenceOf(parsed.value, 'icalComponent');
}

/** RRULE (at most one: one series), EXDATE and RDATE of `component`, with values checked. */
export function recurrenceOf(component: ICalComponent, where: string): Result<ICalProperty[]> {
  return guarded(where, () => {
    const properties = RECURRENCE.flatMap((name) => component.getAllProperties(name));
    if (component.getAllProperties('rrule').length > 1) return invalidIcal(`${where}: more than one RRULE.`);
    for (const property of properties) {
      for (const value of property.getValues() as unknown[]) {
        const utc = value instanceof ICAL.Time && (value.isDate || value.zone === ICAL.Timezone.utcTimezone);
        if (property.name !== 'rrule' && !utc) {
          return invalidIcal(`${where}: ${property.name.toUpperCase()} values must be UTC DATE-TIMEs or DATEs.`);
        }
      }
    }
    return ok(properties);
  });
}

/** The canonical text of an `icalComponent`: one component, LF line ends, RRULE then EXDATE then RDATE. */
export function formatIcalComponent(properties: readonly ICalProperty[], type: ItemType): string {
  const component = new ICAL.Component(COMPONENT_NAME[type]);
  for (const name of RECURRENCE) {
    for (const property of properties) {
      if (property.name === name) component.addProperty(copyProperty(property));
    }
  }
  return component.toString().replace(/\r\n/g, '\n');
}

/**
 * A detached copy of a recurrence property. An RRULE is rebuilt from its value so FREQ comes first,
 * which RFC 5545 §3.3.10 requires of what we write ("the FREQ rule part MUST be the first").
 */
export function copyProperty(property: ICalProperty): ICalProperty {
  if (property.name !== 'rrule') return new ICAL.Property(structuredCopy(property.toJSON()));
  const rule = new ICAL.Property('rrule');
  rule.setValue(ICAL.Recur.fromString(String(property.getFirstValue())));
  return rule;
}

const structuredCopy = (jcal: unknown): unknown[] => JSON.parse(JSON.stringify(jcal)) as unknown[];
