// "What can I do now": the actions `transition` (and `cosignAgreement`) would accept from a
// party at a given time, for the console's buttons and for agents. Tested against the state
// machine itself, so the two cannot disagree.
import type { Proposal } from './documents';
import type { PartyDid } from './primitives';
import { hasExpired, isParty, isTerminal, latestProposal, otherParty, type NegotiationState } from './state';

export type PartyAction = 'propose' | 'accept' | 'reject' | 'withdraw' | 'cosign';

export function availableActions(state: NegotiationState, party: string, now: number): PartyAction[] {
  if (!isParty(state, party)) return [];
  if (state.status === 'ACCEPTED') return state.agreement?.signatures[party] === undefined ? ['cosign'] : [];
  if (isTerminal(state.status)) return [];
  const latest = latestProposal(state);
  if (latest === null) return ['propose', 'withdraw'];
  if (hasExpired(latest, now)) return [];
  if (latest.to !== party) return ['withdraw'];
  return latest.round < state.max_rounds
    ? ['propose', 'accept', 'reject', 'withdraw']
    : ['accept', 'reject', 'withdraw'];
}

export type ProposalSkeleton = Pick<
  Proposal,
  'negotiation_id' | 'previous_proposal_id' | 'from' | 'to' | 'round' | 'category'
>;

/** The fields of `from`'s next proposal that the state machine dictates; the caller adds id, terms, validity. */
export function nextProposalSkeleton(state: NegotiationState, from: PartyDid): ProposalSkeleton {
  const latest = latestProposal(state);
  return {
    negotiation_id: state.negotiation_id,
    previous_proposal_id: latest?.proposal_id ?? null,
    from,
    to: otherParty(state, from),
    round: (latest?.round ?? 0) + 1,
    category: state.category,
  };
}
