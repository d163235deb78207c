import { describe, expect, it } from 'vitest';
import { decideSpend, endRevokes, grantPut, spendRefusal, type StoredGrantState } from './stored-grants';

const live: StoredGrantState = {
  grantMessageId: 'g1',
  grantedAt: 100,
  maxMessages: 2,
  expiresAt: 200,
  spent: 0,
  endedAt: null,
  endReason: null,
};

describe('grantPut (decisions-server.md §1)', () => {
  it('inserts where no grant is in force', () => {
    expect(grantPut(undefined, { grantMessageId: 'g1', grantedAt: 100 })).toBe('insert');
  });
  it('replaces with a different grant message of the same or a later time', () => {
    expect(grantPut(live, { grantMessageId: 'g2', grantedAt: 100 })).toBe('replace');
    expect(grantPut(live, { grantMessageId: 'g2', grantedAt: 101 })).toBe('replace');
  });
  it('keeps the grant in force against a redelivery or an older grant', () => {
    expect(grantPut(live, { grantMessageId: 'g1', grantedAt: 150 })).toBe('keep');
    expect(grantPut(live, { grantMessageId: 'g0', grantedAt: 99 })).toBe('keep');
  });
});

describe('spendRefusal and decideSpend (decisions-server.md §2)', () => {
  it('spends one message and counts what is left', () => {
    expect(decideSpend(live, 150)).toEqual({ ok: true, spent: 1, remaining: 1 });
    expect(decideSpend({ ...live, spent: 1 }, 150)).toEqual({ ok: true, spent: 2, remaining: 0 });
  });
  it('names no grant first', () => {
    expect(decideSpend(undefined, 150)).toEqual({ ok: false, reason: 'no_mic_grant' });
  });
  it('is live through the whole second expires_at, and names expiry before an end', () => {
    expect(spendRefusal(live, 200.9)).toBeUndefined();
    expect(spendRefusal(live, 201)).toBe('mic_grant_expired');
    expect(spendRefusal({ ...live, endedAt: 1, endReason: 'revoked' }, 201)).toBe('mic_grant_expired');
  });
  it('names an end as a revocation, except an end for the budget', () => {
    expect(spendRefusal({ ...live, endedAt: 1, endReason: 'revoked' }, 150)).toBe('mic_revoked');
    expect(spendRefusal({ ...live, spent: 2, endedAt: 1, endReason: 'message_limit_exceeded' }, 150)).toBe(
      'message_limit_exceeded',
    );
    expect(endRevokes({ endedAt: 1, endReason: 'message_limit_exceeded' })).toBe(false);
  });
  it('spends nothing from an ended grant, whatever budget it has left', () => {
    expect(decideSpend({ ...live, endedAt: 1, endReason: 'message_limit_exceeded' }, 150)).toEqual({
      ok: false,
      reason: 'message_limit_exceeded',
    });
  });
  it('names the budget last', () => {
    expect(decideSpend({ ...live, spent: 2 }, 150)).toEqual({ ok: false, reason: 'message_limit_exceeded' });
  });
  it('refuses a clock that is not Unix seconds', () => {
    expect(() => decideSpend(live, Number.NaN)).toThrow(RangeError);
  });
});
