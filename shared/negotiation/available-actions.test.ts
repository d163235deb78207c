import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { signAgreement } from './agreement';
import { availableActions, nextProposalSkeleton } from './available-actions';
import { cosignAgreement } from './cosign';
import { tick } from './expire';
import { latestProposal, type NegotiationState } from './state';
import {
  acceptanceDoc,
  alice,
  bob,
  carol,
  ctx,
  HOUR,
  opened,
  proposalDoc,
  rejectionDoc,
  T0,
} from './test-support/fixtures';
import { transition } from './transition';

const propose = (s: NegotiationState, from = alice) =>
  unwrap(transition(s, { type: 'propose', document: proposalDoc(s, from) }, ctx()));

describe('availableActions', () => {
  it('OPEN: either party may propose or walk away; strangers may do nothing', () => {
    const s = opened();
    expect(availableActions(s, alice.did, T0)).toEqual(['propose', 'withdraw']);
    expect(availableActions(s, bob.did, T0)).toEqual(['propose', 'withdraw']);
    expect(availableActions(s, carol.did, T0)).toEqual([]);
  });

  it('a live proposal: the recipient may answer, the proposer may only walk away', () => {
    const s1 = propose(opened());
    expect(availableActions(s1, bob.did, T0)).toEqual(['propose', 'accept', 'reject', 'withdraw']);
    expect(availableActions(s1, alice.did, T0)).toEqual(['withdraw']);
    expect(availableActions(s1, bob.did, T0 + HOUR + 1)).toEqual([]);
  });

  it('at max_rounds the recipient can no longer counter', () => {
    const s2 = propose(propose(opened({ max_rounds: 2 })), bob);
    expect(availableActions(s2, alice.did, T0)).toEqual(['accept', 'reject', 'withdraw']);
  });

  it('ACCEPTED: only the missing co-signature; other terminal states: nothing', () => {
    const s1 = propose(opened());
    const acc = unwrap(transition(s1, { type: 'accept', document: acceptanceDoc(s1, bob) }, ctx()));
    expect(availableActions(acc, alice.did, T0)).toEqual(['cosign']);
    expect(availableActions(acc, bob.did, T0)).toEqual([]);
    const done = unwrap(
      cosignAgreement(acc, { by: alice.did, signature: signAgreement(acc.agreement!, alice.secretKey) }, T0),
    );
    expect(availableActions(done, alice.did, T0)).toEqual([]);
    const rej = unwrap(transition(s1, { type: 'reject', document: rejectionDoc(s1, bob) }, ctx()));
    expect(availableActions(rej, bob.did, T0)).toEqual([]);
    expect(availableActions(tick(s1, T0 + 2 * HOUR), bob.did, T0 + 2 * HOUR)).toEqual([]);
  });

  it('nextProposalSkeleton names the round, the predecessor and the recipient', () => {
    const s0 = opened();
    expect(nextProposalSkeleton(s0, bob.did)).toEqual({
      negotiation_id: s0.negotiation_id,
      previous_proposal_id: null,
      from: bob.did,
      to: alice.did,
      round: 1,
      category: 'pricing',
    });
    const s1 = propose(s0);
    expect(nextProposalSkeleton(s1, bob.did)).toMatchObject({
      previous_proposal_id: latestProposal(s1)?.proposal_id,
      round: 2,
      to: alice.did,
    });
  });
});
