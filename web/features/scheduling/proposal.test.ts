import { describe, expect, it } from 'vitest';
import { validateMessage } from '@shared/oacop/validate-message';
import fc from 'fast-check';
import { buildProposal, defaultWindow } from './proposal';

const draft = {
  threadId: 'urn:uuid:t1',
  title: ' Planning ',
  minutes: 60,
  startDate: '2026-11-23',
  days: 2,
  required: ['did:key:z6MkAda'],
  optional: ['did:key:z6MkChitra'],
  room: 'did:key:z6MkRoom',
  location: 'Room Atlas',
};

describe('buildProposal', () => {
  it("builds a §3.1 proposal at revision 1 that the receivers' validator accepts; the room is required", () => {
    const built = buildProposal(draft);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value).toMatchObject({
      revision: 1,
      object: { type: 'Event', title: 'Planning', duration: 'PT60M', location: 'Room Atlas' },
      constraints: {
        timeWindow: { start: '2026-11-23T00:00:00Z', end: '2026-11-25T00:00:00Z' },
        participants: ['did:key:z6MkAda', 'did:key:z6MkRoom', 'did:key:z6MkChitra'],
        requiredParticipants: ['did:key:z6MkAda', 'did:key:z6MkRoom'],
      },
    });
    expect(validateMessage(built.value).ok).toBe(true);
  });

  it('refuses an empty title, no participant or a bad window, with a code', () => {
    expect(buildProposal({ ...draft, title: '  ' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(buildProposal({ ...draft, required: [], optional: [], room: undefined })).toMatchObject({ ok: false });
    expect(buildProposal({ ...draft, days: 0 })).toMatchObject({ ok: false });
    expect(buildProposal({ ...draft, startDate: 'soon' })).toMatchObject({ ok: false });
  });

  it('takes two working days from the first working day after today (UTC) as the default window', () => {
    const at = (iso: string) => defaultWindow(Date.parse(iso));
    // Sunday 23:59 → Monday and Tuesday.
    expect(at('2026-11-22T23:59:00Z')).toEqual({ startDate: '2026-11-23', days: 2 });
    // Thursday → Friday to Monday; Friday and Saturday → Monday and Tuesday.
    expect(at('2026-11-26T10:00:00Z')).toEqual({ startDate: '2026-11-27', days: 4 });
    expect(at('2026-11-27T00:00:00Z')).toEqual({ startDate: '2026-11-30', days: 2 });
    expect(at('2026-11-28T12:00:00Z')).toEqual({ startDate: '2026-11-30', days: 2 });
    // The last minute of a year, and a leap day.
    expect(at('2026-12-31T23:59:00Z')).toEqual({ startDate: '2027-01-01', days: 4 });
    expect(at('2028-02-28T08:00:00Z')).toEqual({ startDate: '2028-02-29', days: 2 });
  });

  it('puts two working days and no more in every default window', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2100-01-01') }), (now) => {
        const { startDate, days } = defaultWindow(now);
        const start = Date.parse(`${startDate}T00:00:00Z`);
        const weekdays = Array.from({ length: days }, (_, i) => new Date(start + i * 86_400_000).getUTCDay());
        expect(start).toBeGreaterThan(now);
        expect(start - now).toBeLessThanOrEqual(4 * 86_400_000);
        expect(weekdays.filter((d) => d % 6 !== 0)).toHaveLength(2);
        expect(weekdays[0]! % 6).not.toBe(0);
        expect(weekdays.at(-1)! % 6).not.toBe(0);
      }),
    );
  });
});

describe('buildProposal: limits and dates', () => {
  const base = {
    threadId: 'urn:uuid:p',
    title: 'Planning',
    minutes: 60,
    startDate: '2026-11-28',
    days: 2,
    required: ['did:key:z6MkA'],
    optional: [],
  };
  const now = Date.parse('2026-11-28T15:00:00Z');

  it('takes a window from today, refuses one that started on a day gone', () => {
    expect(buildProposal({ ...base, now }).ok).toBe(true);
    expect(buildProposal({ ...base, startDate: '2026-11-27', now })).toMatchObject({
      ok: false,
      error: { message: 'The window starts in the past: pick today or a later day (UTC).' },
    });
  });

  it('refuses a title over the line limit', () => {
    expect(buildProposal({ ...base, title: 'm'.repeat(201), now })).toMatchObject({
      ok: false,
      error: { message: 'The title must be at most 200 characters (this has 201).' },
    });
  });
});
