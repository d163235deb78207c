// A slot to approve, in words (decisions-web.md §45): the meeting by its title,
// each attendee by name with the slot's time where they are, and an unknown zone said as unknown
// rather than guessed. Zones come from each attendee's directory manifest (`oacop.timeZone`): the
// OACoP messages carry none. Times through the console's one formatter (web/lib/time-words.ts).
// Pure: names, zones and the clock are passed in.
import { rangeWords } from '@web/lib/time-words';
import { zoneCity } from './zone-labels';

export interface SlotAttendee {
  readonly did: string;
  readonly name: string;
  readonly required: boolean;
  /** Free for the whole slot (required attendees of a candidate always are), or missing from it. */
  readonly free: boolean;
  /** The attendee's IANA zone, or null when nobody said where they are. */
  readonly zone: string | null;
  /** "Mon 15 Dec, 10:00–11:00 CET, Berlin", or "time zone unknown". */
  readonly when: string;
}

export const ZONE_UNKNOWN = 'time zone unknown';

/** The slot in one zone: its range, then the zone's city where the zone's short name hides it. */
export function slotInZoneWords(slot: { start: string; end: string }, zone: string, now: number): string {
  const range = rangeWords(Date.parse(slot.start), Date.parse(slot.end), zone, now);
  return zone === 'UTC' ? range : `${range}, ${zoneCity(zone)}`;
}

export interface SlotLike {
  readonly start: string;
  readonly end: string;
  readonly optionalFree?: readonly string[];
  readonly missingRequired?: readonly string[];
}

/** Every attendee of `slot`, in the thread's order: name, whether required, and their local time. */
export function slotAttendees(
  slot: SlotLike,
  participants: readonly { readonly did: string; readonly required: boolean }[],
  zoneOf: (did: string) => string | undefined,
  nameOf: (did: string) => string,
  now: number,
): SlotAttendee[] {
  const optionalFree = new Set(slot.optionalFree ?? []);
  const missing = new Set(slot.missingRequired ?? []);
  return participants.map((p) => {
    const zone = zoneOf(p.did) ?? null;
    return {
      did: p.did,
      name: nameOf(p.did),
      required: p.required,
      free: p.required ? !missing.has(p.did) : optionalFree.has(p.did),
      zone,
      when: zone === null ? ZONE_UNKNOWN : slotInZoneWords(slot, zone, now),
    };
  });
}

/** The accessible name of a slot's approve button: `Approve “Planning sync” for Mon 15 Dec, 09:00–10:00 UTC`. */
export function approveSlotLabel(
  title: string | undefined,
  slot: { start: string; end: string },
  zone: string,
  now: number,
): string {
  const meeting = title?.trim() ? `“${title.trim()}”` : 'the meeting';
  return `Approve ${meeting} for ${slotInZoneWords(slot, zone, now)}`;
}

/** "Ada, Bruno and Room Atlas": the names in a sentence. */
export function namesSentence(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'nobody';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
