// The checks a party's answer (accept, reject, withdraw; RFC 0002 §3.2) passes before its own
// rules, in one order for all three so that the same bad document gets the same error whatever
// step it claims to be.
import { fail, ok, type Result } from '../errors';
import type { Acceptance, Proposal, Rejection, Withdrawal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { isParty, type NegotiationState, type TransitionContext } from './state';
import { checkClock, verifySignature } from './verify-document';

/** Its negotiation, its signer a party, the signer's signature, then the signed time. */
export function checkAnswer(
  state: NegotiationState,
  document: Acceptance | Rejection | Withdrawal,
  what: 'acceptance' | 'rejection' | 'withdrawal',
  ctx: TransitionContext,
): Result<true> {
  if (document.negotiation_id !== state.negotiation_id)
    return fail(Code.NEGOTIATION_MISMATCH, `The ${what} names another negotiation.`);
  if (!isParty(state, document.by)) return fail(Code.NOT_A_PARTY, `${document.by} is not a party to this negotiation.`);
  const signed = verifySignature(document, document.by, what, ctx.verify);
  if (!signed.ok) return signed;
  return checkClock(document.at, ctx.now, ctx.limits.clockSkewMs);
}

/**
 * §3.3: an acceptance or a rejection answers the most recent proposal only; §5 "Signature Theft":
 * and only its recipient answers it (a proposer cannot accept its own offer).
 */
export function checkAnswersLatest(
  latest: Proposal,
  document: Acceptance | Rejection,
  verb: 'accept' | 'reject',
): Result<true> {
  if (document.proposal_id !== latest.proposal_id) {
    return fail(Code.STALE_PROPOSAL, `Only the most recent proposal can be ${verb}ed.`, {
      latest: latest.proposal_id,
    });
  }
  if (document.by !== latest.to) return fail(Code.NOT_RECIPIENT, `Only the recipient of the proposal can ${verb} it.`);
  return ok(true);
}
