import { describe, expect, it } from 'vitest';
import { verifyDocument } from '../crypto/signed-document';
import { Acceptance, OpenDocument, Proposal, Rejection, signNegotiationDocument, Withdrawal } from './documents';
import { alice, bob, opened, openDoc, proposalDoc, rejectionDoc, withdrawalDoc } from './test-support/fixtures';

// RFC 0002 §3.4's example with its did:web parties replaced by did:key (this project's parties).
const rfcExample = {
  proposal_id: 'prp_01HX2QFP4N8R5T6V7W8X9Y0Z1A',
  negotiation_id: 'neg_01HX2QF8GZRP9V3K5YXJW0AQ7M',
  previous_proposal_id: null,
  from: alice.did,
  to: bob.did,
  round: 1,
  category: 'pricing',
  terms: {
    action: 'weather.forecast.detailed',
    calls_per_month: 100000,
    price_per_call_eur: '0.0040',
    billing_interval: 'month',
    minimum_commitment_months: 6,
    early_termination_fee_eur: '200.00',
  },
  valid_until: '2026-05-10T12:00:00Z',
};

describe('documents', () => {
  it('the §3.4 example, signed, is a Proposal whose signature verifies against `from`', () => {
    const signed = signNegotiationDocument<Proposal>(rfcExample, alice.secretKey);
    expect(Proposal.parse(signed)).toEqual(signed);
    expect(verifyDocument(signed, 'signature', alice.did).ok).toBe(true);
  });

  it('the §3.4 example as printed (did:web, signature "...") is refused: parties are did:key', () => {
    const printed = { ...rfcExample, from: 'did:web:agent-a.example', to: 'did:web:agent-b.example', signature: '...' };
    const issues = Proposal.safeParse(printed).error?.issues.map((i) => i.path.join('.'));
    expect(issues).toEqual(['from', 'to', 'signature']);
  });

  it('every fixture document parses under its schema', () => {
    const s = opened();
    expect(OpenDocument.safeParse(openDoc()).success).toBe(true);
    expect(Proposal.safeParse(proposalDoc(s, alice)).success).toBe(true);
    expect(Rejection.safeParse(rejectionDoc(s, bob)).success).toBe(true);
    expect(Withdrawal.safeParse(withdrawalDoc(s, bob)).success).toBe(true);
  });

  it('the type field keeps one kind of document from passing as another', () => {
    const s = opened();
    const w = withdrawalDoc(s, bob);
    expect(Rejection.safeParse({ ...w, type: 'reject', proposal_id: 'prp_1' }).success).toBe(true);
    // …but the signature covered "withdraw" and no proposal_id, so it no longer verifies.
    expect(verifyDocument({ ...w, type: 'reject', proposal_id: 'prp_1' }, 'signature', bob.did).ok).toBe(false);
    expect(Acceptance.safeParse({ ...rejectionDoc(s, bob), type: 'accept' }).success).toBe(false);
  });
});
