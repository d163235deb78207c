import { describe, expect, it } from 'vitest';
import { approveSlotLabel, namesSentence, slotAttendees, slotInZoneWords, ZONE_UNKNOWN } from './slot-words';

const now = Date.parse('2026-11-20T12:00:00Z');
const slot = {
  start: '2026-11-23T13:00:00Z',
  end: '2026-11-23T14:00:00Z',
  optionalFree: ['did:key:z6MkChitra'],
  missingRequired: [],
};
const zones: Record<string, string> = {
  'did:key:z6MkAda': 'Europe/Berlin',
  'did:key:z6MkBruno': 'America/New_York',
  'did:key:z6MkChitra': 'Asia/Kolkata',
};
const names: Record<string, string> = {
  'did:key:z6MkAda': 'Ada',
  'did:key:z6MkBruno': 'Bruno',
  'did:key:z6MkChitra': 'Chitra',
};

describe('a slot in words', () => {
  it('gives each attendee the slot in their own zone, by name, and says an unknown zone is unknown', () => {
    const rows = slotAttendees(
      slot,
      [
        { did: 'did:key:z6MkAda', required: true },
        { did: 'did:key:z6MkBruno', required: true },
        { did: 'did:key:z6MkChitra', required: false },
        { did: 'did:key:z6MkStranger', required: false },
      ],
      (d) => zones[d],
      (d) => names[d] ?? 'did:key:z6MkStr…anger',
      now,
    );
    expect(rows.map((r) => [r.name, r.when, r.free])).toEqual([
      ['Ada', 'Mon 23 Nov, 14:00–15:00 CET, Berlin', true],
      ['Bruno', 'Mon 23 Nov, 08:00–09:00 GMT-5, New York', true],
      ['Chitra', 'Mon 23 Nov, 18:30–19:30 GMT+5:30, Kolkata', true],
      ['did:key:z6MkStr…anger', ZONE_UNKNOWN, false],
    ]);
    expect(rows[3]!.zone).toBeNull();
  });

  it('names the day where the attendee is, when it is another day there', () => {
    expect(slotInZoneWords({ start: '2026-11-23T23:30:00Z', end: '2026-11-24T00:30:00Z' }, 'Asia/Kolkata', now)).toBe(
      'Tue 24 Nov, 05:00–06:00 GMT+5:30, Kolkata',
    );
    expect(slotInZoneWords(slot, 'UTC', now)).toBe('Mon 23 Nov, 13:00–14:00 UTC');
  });

  it('marks a required attendee missing from a nearest alternative', () => {
    const [ada] = slotAttendees(
      { ...slot, optionalFree: [], missingRequired: ['did:key:z6MkAda'] },
      [{ did: 'did:key:z6MkAda', required: true }],
      (d) => zones[d],
      (d) => names[d]!,
      now,
    );
    expect(ada!.free).toBe(false);
  });

  it('labels the approve button with the meeting and its time', () => {
    expect(approveSlotLabel(' Planning sync ', slot, 'UTC', now)).toBe(
      'Approve “Planning sync” for Mon 23 Nov, 13:00–14:00 UTC',
    );
    expect(approveSlotLabel(undefined, slot, 'Europe/Berlin', now)).toBe(
      'Approve the meeting for Mon 23 Nov, 14:00–15:00 CET, Berlin',
    );
  });

  it('joins names as a sentence', () => {
    expect(namesSentence([])).toBe('nobody');
    expect(namesSentence(['Ada'])).toBe('Ada');
    expect(namesSentence(['Ada', 'Bruno', 'Room Atlas'])).toBe('Ada, Bruno and Room Atlas');
  });
});
