import { describe, expect, it } from 'vitest';
import { validateMessage } from '@shared/oacop/validate-message';
import { buildProposal, defaultWindowStart } from './proposal';

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

  it('starts the default window tomorrow (UTC)', () => {
    expect(defaultWindowStart(Date.parse('2026-11-22T23:59:00Z'))).toBe('2026-11-23');
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
