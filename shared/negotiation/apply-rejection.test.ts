import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { toTimestamp } from './primitives';
import { latestProposal, type NegotiationState as State } from './state';
import {
  alice,
  bob,
  carol,
  ctx,
  MINUTE,
  opened,
  proposalDoc,
  rejectionDoc,
  T0,
  tamper,
  withdrawalDoc,
  type TestParty,
} from './test-support/fixtures';
import { transition } from './transition';

const run = (state: State, type: 'reject' | 'withdraw', document: unknown) => {
  const r = transition(state, { type, document }, ctx());
  return r.ok ? r.value.status : r.error.code;
};
const step = (state: State, from: TestParty) =>
  unwrap(transition(state, { type: 'propose', document: proposalDoc(state, from) }, ctx()));

describe('reject (§3.2)', () => {
  it('PROPOSED or COUNTERED → REJECTED by the recipient', () => {
    const s1 = step(opened(), alice);
    expect(run(s1, 'reject', rejectionDoc(s1, bob))).toBe('REJECTED');
    const s2 = step(s1, bob);
    expect(run(s2, 'reject', rejectionDoc(s2, alice))).toBe('REJECTED');
  });

  it('refuses reject while OPEN, by the proposer, by a stranger, of a superseded proposal', () => {
    const s0 = opened();
    expect(run(s0, 'reject', rejectionDoc(s0, bob))).toBe(Code.INVALID_TRANSITION);
    const s1 = step(s0, alice);
    expect(run(s1, 'reject', rejectionDoc(s1, alice))).toBe(Code.NOT_RECIPIENT);
    expect(run(s1, 'reject', rejectionDoc(s1, carol))).toBe(Code.NOT_A_PARTY);
    const s2 = step(s1, bob);
    expect(run(s2, 'reject', rejectionDoc(s2, alice, { proposal_id: latestProposal(s1)!.proposal_id }))).toBe(
      Code.STALE_PROPOSAL,
    );
  });

  it('refuses a foreign negotiation, a bad signature, a skewed clock, a malformed document', () => {
    const s1 = step(opened(), alice);
    expect(run(s1, 'reject', rejectionDoc(s1, bob, { negotiation_id: 'neg_other' }))).toBe(Code.NEGOTIATION_MISMATCH);
    const doc = rejectionDoc(s1, bob);
    expect(run(s1, 'reject', { ...doc, signature: tamper(doc.signature) })).toBe(Code.SIGNATURE_INVALID);
    expect(run(s1, 'reject', rejectionDoc(s1, bob, {}, T0 + 6 * MINUTE))).toBe(Code.CLOCK_SKEW);
    expect(run(s1, 'reject', { ...doc, type: 'accept' })).toBe(Code.INVALID_DOCUMENT);
  });
});

describe('withdraw (§3.1 Walk Away)', () => {
  it('either party walks away from OPEN, PROPOSED or COUNTERED', () => {
    const s0 = opened();
    expect(run(s0, 'withdraw', withdrawalDoc(s0, alice))).toBe('WITHDRAWN');
    expect(run(s0, 'withdraw', withdrawalDoc(s0, bob))).toBe('WITHDRAWN');
    const s1 = step(s0, alice);
    expect(run(s1, 'withdraw', withdrawalDoc(s1, alice))).toBe('WITHDRAWN');
    const s2 = step(s1, bob);
    expect(run(s2, 'withdraw', withdrawalDoc(s2, alice, { reason: 'found another supplier' }))).toBe('WITHDRAWN');
  });

  it('refuses a stranger, a foreign negotiation, a bad signature, a skewed clock', () => {
    const s0 = opened();
    expect(run(s0, 'withdraw', withdrawalDoc(s0, carol))).toBe(Code.NOT_A_PARTY);
    expect(run(s0, 'withdraw', withdrawalDoc(s0, alice, { negotiation_id: 'neg_other' }))).toBe(
      Code.NEGOTIATION_MISMATCH,
    );
    const doc = withdrawalDoc(s0, alice);
    expect(run(s0, 'withdraw', { ...doc, by: bob.did })).toBe(Code.SIGNATURE_INVALID);
    expect(run(s0, 'withdraw', withdrawalDoc(s0, alice, { at: toTimestamp(T0 + 10 * MINUTE) }))).toBe(Code.CLOCK_SKEW);
    expect(run(s0, 'withdraw', { ...doc, proposal_id: 'prp_x' })).toBe(Code.INVALID_DOCUMENT);
  });

  it('a withdrawn negotiation refuses everything after (terminal)', () => {
    const s0 = opened();
    const gone = unwrap(transition(s0, { type: 'withdraw', document: withdrawalDoc(s0, alice) }, ctx()));
    expect(run(gone, 'withdraw', withdrawalDoc(gone, bob))).toBe(Code.NEGOTIATION_TERMINAL);
    const r = transition(gone, { type: 'propose', document: proposalDoc(s0, bob) }, ctx());
    expect(r.ok ? 'ok' : r.error.code).toBe(Code.NEGOTIATION_TERMINAL);
  });
});
