import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { signAgreement, verifyAgreement } from './agreement';
import { cosignAgreement } from './cosign';
import { NegotiationErrorCode as Code } from './error-codes';
import type { NegotiationState } from './state';
import { acceptanceDoc, alice, bob, carol, ctx, opened, proposalDoc, T0, tamper } from './test-support/fixtures';
import { transition } from './transition';

function accepted(): NegotiationState {
  const s0 = opened();
  const s1 = unwrap(transition(s0, { type: 'propose', document: proposalDoc(s0, alice) }, ctx()));
  return unwrap(transition(s1, { type: 'accept', document: acceptanceDoc(s1, bob) }, ctx()));
}
const codeOf = (s: NegotiationState, input: unknown) => {
  const r = cosignAgreement(s, input, T0);
  return r.ok ? 'ok' : r.error.code;
};

describe('cosignAgreement (§3.5 signed Agreement, §5 co-signature)', () => {
  it('the proposer co-signs; the agreement is then complete and the status stays ACCEPTED', () => {
    const s = accepted();
    const signature = signAgreement(s.agreement!, alice.secretKey);
    const r = cosignAgreement(s, { by: alice.did, signature }, T0 + 1000);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe('ACCEPTED');
    expect(r.value.history.at(-1)).toEqual({
      type: 'cosign',
      by: alice.did,
      signature,
      received_at: '2026-05-03T10:00:01.000Z',
    });
    expect(unwrap(verifyAgreement(r.value.agreement)).complete).toBe(true);
    expect(r.value.agreement?.agreement_hash).toBe(s.agreement?.agreement_hash);
  });

  it('refuses a second signature, a stranger, a bad signature, malformed input', () => {
    const s = accepted();
    expect(codeOf(s, { by: bob.did, signature: signAgreement(s.agreement!, bob.secretKey) })).toBe(
      Code.AGREEMENT_ALREADY_SIGNED,
    );
    expect(codeOf(s, { by: carol.did, signature: signAgreement(s.agreement!, carol.secretKey) })).toBe(
      Code.NOT_A_PARTY,
    );
    expect(codeOf(s, { by: alice.did, signature: tamper(signAgreement(s.agreement!, alice.secretKey)) })).toBe(
      Code.AGREEMENT_SIGNATURE_INVALID,
    );
    expect(codeOf(s, { by: alice.did, signature: signAgreement(s.agreement!, bob.secretKey) })).toBe(
      Code.AGREEMENT_SIGNATURE_INVALID,
    );
    expect(codeOf(s, { by: alice.did })).toBe(Code.INVALID_DOCUMENT);
  });

  it('refuses when there is no accepted agreement, or when the stored one was altered', () => {
    expect(codeOf(opened(), { by: alice.did, signature: 'x' })).toBe(Code.INVALID_TRANSITION);
    const s = accepted();
    const altered = { ...s, agreement: { ...s.agreement!, terms: { price_per_call_eur: '0.0001' } } };
    expect(codeOf(altered, { by: alice.did, signature: signAgreement(s.agreement!, alice.secretKey) })).toBe(
      Code.AGREEMENT_HASH_MISMATCH,
    );
  });

  it('does not reopen the negotiation: transitions stay refused', () => {
    const s = accepted();
    const done = unwrap(
      cosignAgreement(s, { by: alice.did, signature: signAgreement(s.agreement!, alice.secretKey) }, T0),
    );
    const r = transition(done, { type: 'expire' }, ctx());
    expect(r.ok ? 'ok' : r.error.code).toBe(Code.NEGOTIATION_TERMINAL);
  });
});
