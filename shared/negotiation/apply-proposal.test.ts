import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { toTimestamp } from './primitives';
import { NegotiationState, proposals, type NegotiationState as State } from './state';
import { alice, bob, carol, ctx, HOUR, opened, proposalDoc, T0, tamper, type TestParty } from './test-support/fixtures';
import { transition } from './transition';

const propose = (state: State, document: unknown, now = T0) =>
  transition(state, { type: 'propose', document }, ctx(now));
const codeOf = (state: State, document: unknown) => {
  const r = propose(state, document);
  return r.ok ? 'ok' : r.error.code;
};
const step = (state: State, from: TestParty) => unwrap(propose(state, proposalDoc(state, from)));

describe('propose and counter (§3.2)', () => {
  it('OPEN → PROPOSED on the first proposal, from either party', () => {
    const s = opened();
    const byAlice = step(s, alice);
    expect(byAlice.status).toBe('PROPOSED');
    expect(step(s, bob).status).toBe('PROPOSED');
    expect(NegotiationState.safeParse(byAlice).success).toBe(true);
  });

  it('PROPOSED → COUNTERED → COUNTERED as the parties alternate, rounds 1, 2, 3', () => {
    const s1 = step(opened(), alice);
    const s2 = step(s1, bob);
    const s3 = step(s2, alice);
    expect([s2.status, s3.status]).toEqual(['COUNTERED', 'COUNTERED']);
    expect(proposals(s3).map((p) => p.round)).toEqual([1, 2, 3]);
    expect(proposals(s3)[2]?.previous_proposal_id).toBe(proposals(s3)[1]?.proposal_id);
  });

  it('refuses a document for another negotiation', () => {
    const s = opened();
    expect(codeOf(s, proposalDoc(s, alice, { negotiation_id: 'neg_other' }))).toBe(Code.NEGOTIATION_MISMATCH);
  });

  it('refuses a proposer who is not a party, and a recipient who is not the other party', () => {
    const s = opened();
    expect(codeOf(s, proposalDoc(s, carol, { to: bob.did }))).toBe(Code.NOT_A_PARTY);
    expect(codeOf(s, proposalDoc(s, alice, { to: alice.did }))).toBe(Code.INVALID_RECIPIENT);
    expect(codeOf(s, proposalDoc(s, alice, { to: carol.did }))).toBe(Code.INVALID_RECIPIENT);
  });

  it('verifies the signature against `from`', () => {
    const s = opened();
    expect(codeOf(s, proposalDoc(s, alice, {}, bob))).toBe(Code.SIGNATURE_INVALID);
    const doc = proposalDoc(s, alice);
    expect(codeOf(s, { ...doc, signature: tamper(doc.signature) })).toBe(Code.SIGNATURE_INVALID);
    expect(codeOf(s, { ...doc, terms: { ...doc.terms, price_per_call_eur: '0.0001' } })).toBe(Code.SIGNATURE_INVALID);
  });

  it('refuses another category', () => {
    const s = opened();
    expect(codeOf(s, proposalDoc(s, alice, { category: 'sla' }))).toBe(Code.CATEGORY_MISMATCH);
  });

  it('refuses a replayed proposal id, live or superseded (§5)', () => {
    const s1 = step(opened(), alice);
    const first = proposals(s1)[0];
    expect(codeOf(s1, first)).toBe(Code.PROPOSAL_ID_REUSED);
    expect(codeOf(s1, proposalDoc(s1, bob, { proposal_id: first!.proposal_id }))).toBe(Code.PROPOSAL_ID_REUSED);
  });

  it('requires previous_proposal_id to name the most recent live proposal (§5)', () => {
    const s0 = opened();
    expect(codeOf(s0, proposalDoc(s0, alice, { previous_proposal_id: 'prp_ghost' }))).toBe(
      Code.STALE_PREVIOUS_PROPOSAL,
    );
    const s1 = step(s0, alice);
    expect(codeOf(s1, proposalDoc(s1, bob, { previous_proposal_id: null }))).toBe(Code.STALE_PREVIOUS_PROPOSAL);
    const s2 = step(s1, bob);
    // Countering the superseded round-1 proposal is a replay against a dead proposal.
    expect(codeOf(s2, proposalDoc(s2, alice, { previous_proposal_id: proposals(s2)[0]!.proposal_id }))).toBe(
      Code.STALE_PREVIOUS_PROPOSAL,
    );
  });

  it('refuses a party countering its own proposal (decision: turns alternate)', () => {
    const s1 = step(opened(), alice);
    expect(codeOf(s1, proposalDoc(s1, alice))).toBe(Code.NOT_YOUR_TURN);
  });

  it('requires round = previous round + 1, starting at 1 (decision: round numbering)', () => {
    const s0 = opened();
    expect(codeOf(s0, proposalDoc(s0, alice, { round: 2 }))).toBe(Code.ROUND_NOT_MONOTONIC);
    const s1 = step(s0, alice);
    expect(codeOf(s1, proposalDoc(s1, bob, { round: 1 }))).toBe(Code.ROUND_NOT_MONOTONIC);
    expect(codeOf(s1, proposalDoc(s1, bob, { round: 3 }))).toBe(Code.ROUND_NOT_MONOTONIC);
    expect(codeOf(s1, proposalDoc(s1, bob, { round: 0 }))).toBe(Code.INVALID_DOCUMENT);
  });

  it('refuses a round past max_rounds (§3.6)', () => {
    const s2 = step(step(opened({ max_rounds: 2 }), alice), bob);
    expect(codeOf(s2, proposalDoc(s2, alice))).toBe(Code.MAX_ROUNDS_EXCEEDED);
  });

  it('requires valid_until in the future', () => {
    const s = opened();
    expect(codeOf(s, proposalDoc(s, alice, { valid_until: toTimestamp(T0) }))).toBe(Code.VALIDITY_INVALID);
    expect(codeOf(s, proposalDoc(s, alice, { valid_until: toTimestamp(T0 - HOUR) }))).toBe(Code.VALIDITY_INVALID);
    expect(codeOf(s, proposalDoc(s, alice, { valid_until: toTimestamp(T0 + 1) }))).toBe('ok');
  });

  it('checks the reserved effective-window terms', () => {
    const s = opened();
    const terms = (t: Record<string, unknown>) => proposalDoc(s, alice, { terms: t as never });
    expect(codeOf(s, terms({ effective_from: 'soon' }))).toBe(Code.INVALID_TERMS);
    expect(codeOf(s, terms({ effective_until: '2026-11-04T00:00:00Z' }))).toBe(Code.INVALID_TERMS);
    expect(codeOf(s, terms({ effective_from: '2026-11-04T00:00:00Z', effective_until: '2026-05-04T00:00:00Z' }))).toBe(
      Code.INVALID_TERMS,
    );
    expect(codeOf(s, terms({ effective_from: '2026-05-04T00:00:00Z', effective_until: 7 }))).toBe(Code.INVALID_TERMS);
    expect(codeOf(s, terms({ effective_from: '2026-05-04T00:00:00Z', effective_until: '2026-11-04T00:00:00Z' }))).toBe(
      'ok',
    );
  });

  it('leaves the state untouched when it refuses', () => {
    const s1 = step(opened(), alice);
    const before = structuredClone(s1);
    expect(propose(s1, proposalDoc(s1, alice)).ok).toBe(false);
    expect(s1).toEqual(before);
  });

  it('refuses malformed proposals', () => {
    const s = opened();
    const doc = proposalDoc(s, alice);
    expect(codeOf(s, { ...doc, round: '1' })).toBe(Code.INVALID_DOCUMENT);
    expect(codeOf(s, { ...doc, note: 'extra' })).toBe(Code.INVALID_DOCUMENT);
    expect(codeOf(s, { ...doc, terms: [] })).toBe(Code.INVALID_DOCUMENT);
    expect(codeOf(s, 'proposal')).toBe(Code.INVALID_DOCUMENT);
  });
});
