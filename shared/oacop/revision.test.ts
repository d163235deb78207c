import { describe, expect, it } from 'vitest';
import { applyOptionalRevision, applyRevision, checkRespondingRevision } from './revision';

describe('applyRevision (OACoP §3.4.2)', () => {
  it('accepts a higher revision and anything when nothing is known yet', () => {
    expect(applyRevision({ revision: 1 }, { revision: 2, x: 'new' })).toEqual({
      ok: true,
      value: { revision: 2, x: 'new' },
    });
    expect(applyRevision({ revision: 1 }, { revision: 5 }).ok).toBe(true);
    expect(applyRevision(undefined, { revision: 3 }).ok).toBe(true);
  });

  it.each([1, 2])('refuses revision %i against 2 as stale', (incoming) => {
    expect(applyRevision({ revision: 2 }, { revision: incoming })).toEqual({
      ok: false,
      error: { code: 'OACOP_STALE_REVISION', message: expect.any(String), details: { current: 2, incoming } },
    });
  });
});

describe('checkRespondingRevision (OACoP §3.4.3)', () => {
  it('accepts an answer to the current revision only', () => {
    expect(checkRespondingRevision(2, 2).ok).toBe(true);
    expect(checkRespondingRevision(2, 1)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_STALE_REVISION', message: expect.stringContaining('outdated') },
    });
    expect(checkRespondingRevision(2, 3)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_STALE_REVISION', message: expect.stringContaining('unknown') },
    });
  });
});

describe('applyOptionalRevision (tasks, no revision in §7.4–7.5)', () => {
  it('applies messages in arrival order until a revision appears', () => {
    expect(applyOptionalRevision(undefined, undefined)).toEqual({ ok: true, value: undefined });
    expect(applyOptionalRevision(undefined, 4)).toEqual({ ok: true, value: 4 });
  });

  it('then requires a higher revision on every message', () => {
    expect(applyOptionalRevision(4, 5)).toEqual({ ok: true, value: 5 });
    expect(applyOptionalRevision(4, 4)).toMatchObject({ ok: false, error: { code: 'OACOP_STALE_REVISION' } });
    expect(applyOptionalRevision(4, undefined)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_STALE_REVISION', details: { current: 4 } },
    });
  });
});
