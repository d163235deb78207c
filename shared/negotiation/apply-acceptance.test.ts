import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { signAgreement, verifyAgreement } from './agreement';
import { agreementOnAcceptance } from './apply-acceptance';
import { NegotiationErrorCode as Code } from './error-codes';
import { toTimestamp } from './primitives';
import { latestProposal, NegotiationState, type NegotiationState as State } from './state';
import {
  acceptanceDoc,
  alice,
  bob,
  carol,
  ctx,
  HOUR,
  MINUTE,
  opened,
  proposalDoc,
  SEED,
  T0,
  tamper,
  type TestParty,
} from './test-support/fixtures';
import { transition } from './transition';

const accept = (state: State, document: unknown, now = T0) => transition(state, { type: 'accept', document }, ctx(now));
const codeOf = (state: State, document: unknown, now = T0) => {
  const r = accept(state, document, now);
  return r.ok ? 'ok' : r.error.code;
};
const step = (state: State, from: TestParty, overrides = {}) =>
  unwrap(transition(state, { type: 'propose', document: proposalDoc(state, from, overrides) }, ctx()));

describe('accept (§3.2, §3.5)', () => {
  it('PROPOSED → ACCEPTED by the recipient, producing an agreement the accepter signed', () => {
    const s1 = step(opened(), alice);
    const r = accept(s1, acceptanceDoc(s1, bob));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe('ACCEPTED');
    const agreement = r.value.agreement;
    expect(agreement?.terms).toEqual(latestProposal(s1)?.terms);
    expect(agreement?.parties).toEqual([alice.did, bob.did]);
    expect(agreement?.metadata.accepted_proposal_id).toBe(latestProposal(s1)?.proposal_id);
    expect(agreement?.metadata.confidentiality).toBe('internal');
    const verdict = unwrap(verifyAgreement(agreement));
    expect(verdict.signatures).toEqual({ [bob.did]: 'valid', [alice.did]: 'missing' });
    expect(verdict.complete).toBe(false);
    expect(NegotiationState.safeParse(r.value).success).toBe(true);
  });

  it('COUNTERED → ACCEPTED by the recipient of the counter', () => {
    const s2 = step(step(opened(), alice), bob);
    const r = accept(s2, acceptanceDoc(s2, alice));
    expect(r.ok && r.value.status).toBe('ACCEPTED');
  });

  it('takes the effective window from the terms, else from the acceptance time', () => {
    const window = { effective_from: '2026-05-04T00:00:00Z', effective_until: '2026-11-04T00:00:00Z' };
    const s1 = step(opened(), alice, { terms: window });
    const withWindow = unwrap(accept(s1, acceptanceDoc(s1, bob))).agreement;
    expect([withWindow?.effective_from, withWindow?.effective_until]).toEqual([
      window.effective_from,
      window.effective_until,
    ]);
    const s1b = step(opened(), alice);
    const open = unwrap(accept(s1b, acceptanceDoc(s1b, bob))).agreement;
    expect([open?.effective_from, open?.effective_until]).toEqual([toTimestamp(T0), null]);
  });

  it('refuses accept while OPEN: there is nothing to accept', () => {
    const s = opened();
    expect(codeOf(s, { type: 'accept' })).toBe(Code.INVALID_TRANSITION);
  });

  it('refuses the proposer accepting its own proposal (§5 "Signature Theft")', () => {
    const s1 = step(opened(), alice);
    expect(codeOf(s1, acceptanceDoc(s1, alice))).toBe(Code.NOT_RECIPIENT);
  });

  it('refuses a non-party, a foreign negotiation, a bad signature, a skewed clock', () => {
    const s1 = step(opened(), alice);
    expect(codeOf(s1, acceptanceDoc(s1, carol))).toBe(Code.NOT_A_PARTY);
    expect(codeOf(s1, acceptanceDoc(s1, bob, { negotiation_id: 'neg_other' }))).toBe(Code.NEGOTIATION_MISMATCH);
    const doc = acceptanceDoc(s1, bob);
    expect(codeOf(s1, { ...doc, signature: tamper(doc.signature) })).toBe(Code.SIGNATURE_INVALID);
    expect(codeOf(s1, { ...doc, by: alice.did })).toBe(Code.SIGNATURE_INVALID);
    expect(codeOf(s1, acceptanceDoc(s1, bob, { at: toTimestamp(T0 - 10 * MINUTE) }))).toBe(Code.CLOCK_SKEW);
    expect(codeOf(s1, { ...doc, salt_seed: 'short' })).toBe(Code.INVALID_DOCUMENT);
  });

  it('refuses accepting a superseded proposal (§3.3 "most recent")', () => {
    const s1 = step(opened(), alice);
    const s2 = step(s1, bob);
    const first = latestProposal(s1)!.proposal_id;
    expect(codeOf(s2, acceptanceDoc(s2, alice, { proposal_id: first }))).toBe(Code.STALE_PROPOSAL);
  });

  it('accepts up to and including valid_until, and refuses after (decision: expiry)', () => {
    const s1 = step(opened(), alice);
    const until = T0 + HOUR;
    expect(codeOf(s1, acceptanceDoc(s1, bob, {}, until), until)).toBe('ok');
    expect(codeOf(s1, acceptanceDoc(s1, bob, {}, until + 1), until + 1)).toBe(Code.PROPOSAL_EXPIRED);
  });

  it('requires agreement_signature over exactly the agreement this acceptance produces', () => {
    const s1 = step(opened(), alice);
    const other = agreementOnAcceptance(s1, latestProposal(s1)!, toTimestamp(T0), 'B'.repeat(43));
    expect(codeOf(s1, acceptanceDoc(s1, bob, { agreement_signature: signAgreement(other, bob.secretKey) }))).toBe(
      Code.AGREEMENT_SIGNATURE_INVALID,
    );
    const own = agreementOnAcceptance(s1, latestProposal(s1)!, toTimestamp(T0), SEED);
    expect(codeOf(s1, acceptanceDoc(s1, bob, { agreement_signature: signAgreement(own, alice.secretKey) }))).toBe(
      Code.AGREEMENT_SIGNATURE_INVALID,
    );
  });

  it('treats the first acceptance as terminal (§5 "Race Conditions")', () => {
    const s1 = step(opened(), alice);
    const doc = acceptanceDoc(s1, bob);
    const accepted = unwrap(accept(s1, doc));
    expect(codeOf(accepted, doc)).toBe(Code.NEGOTIATION_TERMINAL);
    expect(codeOf(accepted, acceptanceDoc(s1, bob, { salt_seed: 'C'.repeat(43) }))).toBe(Code.NEGOTIATION_TERMINAL);
  });

  it('leaves the state untouched when it refuses', () => {
    const s1 = step(opened(), alice);
    const before = structuredClone(s1);
    expect(accept(s1, acceptanceDoc(s1, alice)).ok).toBe(false);
    expect(s1).toEqual(before);
  });
});
