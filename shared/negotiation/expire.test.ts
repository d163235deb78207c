import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { applyExpiry, tick } from './expire';
import { toTimestamp } from './primitives';
import { latestProposal } from './state';
import { alice, bob, ctx, HOUR, opened, proposalDoc, T0, withdrawalDoc } from './test-support/fixtures';
import { transition } from './transition';

const proposed = () => {
  const s0 = opened();
  return unwrap(transition(s0, { type: 'propose', document: proposalDoc(s0, alice) }, ctx()));
};
const UNTIL = T0 + HOUR;

describe('expiry (§3.2 expire, §3.4 valid_until)', () => {
  it('tick returns the very same state until valid_until has passed', () => {
    const s1 = proposed();
    expect(tick(s1, T0)).toBe(s1);
    expect(tick(s1, UNTIL)).toBe(s1);
  });

  it('tick moves a lapsed negotiation to EXPIRED, naming the lapsed proposal', () => {
    const s1 = proposed();
    const expired = tick(s1, UNTIL + 1);
    expect(expired.status).toBe('EXPIRED');
    expect(expired.history.at(-1)).toEqual({
      type: 'expire',
      proposal_id: latestProposal(s1)?.proposal_id,
      received_at: toTimestamp(UNTIL + 1),
    });
    expect(s1.status).toBe('PROPOSED');
  });

  it('an OPEN negotiation has nothing to expire; a terminal one is left alone', () => {
    const s0 = opened();
    expect(tick(s0, T0 + 365 * 24 * HOUR)).toBe(s0);
    const gone = unwrap(transition(s0, { type: 'withdraw', document: withdrawalDoc(s0, bob) }, ctx()));
    expect(tick(gone, T0 + 365 * 24 * HOUR)).toBe(gone);
  });

  it('the expire event is refused until something has expired', () => {
    const r = transition(proposed(), { type: 'expire' }, ctx(UNTIL));
    expect(r.ok ? 'ok' : r.error.code).toBe(Code.NOT_EXPIRED);
    const open = applyExpiry(opened(), UNTIL + 1);
    expect(open.ok ? 'ok' : open.error.code).toBe(Code.NOT_EXPIRED);
    const late = transition(proposed(), { type: 'expire' }, ctx(UNTIL + 1));
    expect(late.ok && late.value.status).toBe('EXPIRED');
  });

  it('every party event on a lapsed but un-ticked negotiation is refused with PROPOSAL_EXPIRED', () => {
    const s1 = proposed();
    const later = ctx(UNTIL + 1);
    for (const event of [
      { type: 'propose', document: proposalDoc(s1, bob) },
      { type: 'accept', document: {} },
      { type: 'reject', document: {} },
      { type: 'withdraw', document: withdrawalDoc(s1, alice, {}, UNTIL + 1) },
    ] as const) {
      const r = transition(s1, event, later);
      expect(r.ok ? 'ok' : r.error.code).toBe(Code.PROPOSAL_EXPIRED);
    }
  });

  it('an expired negotiation is terminal', () => {
    const expired = tick(proposed(), UNTIL + 1);
    const r = transition(expired, { type: 'expire' }, ctx(UNTIL + 2));
    expect(r.ok ? 'ok' : r.error.code).toBe(Code.NEGOTIATION_TERMINAL);
  });
});
