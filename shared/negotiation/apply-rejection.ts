// `reject` and `withdraw` (RFC 0002 §3.2): the two terminal steps that produce no agreement.
import { fail, ok, type Result } from '../errors';
import { Rejection, Withdrawal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { advance, isParty, latestProposal, receivedAt, type NegotiationState, type TransitionContext } from './state';
import { checkClock, parseDocument, verifySignature } from './verify-document';

/** POST /oap/negotiation/{id}/reject: the recipient refuses the most recent proposal. */
export function applyRejection(
  state: NegotiationState,
  input: unknown,
  ctx: TransitionContext,
): Result<NegotiationState> {
  const latest = latestProposal(state);
  if (latest === null)
    return fail(Code.INVALID_TRANSITION, 'There is no proposal to reject yet.', { status: state.status });
  const parsed = parseDocument(Rejection, input, 'rejection');
  if (!parsed.ok) return parsed;
  const r = parsed.value;

  if (r.negotiation_id !== state.negotiation_id)
    return fail(Code.NEGOTIATION_MISMATCH, 'The rejection names another negotiation.');
  if (!isParty(state, r.by)) return fail(Code.NOT_A_PARTY, `${r.by} is not a party to this negotiation.`);
  const signed = verifySignature(r, r.by, 'rejection', ctx.verify);
  if (!signed.ok) return signed;
  const clock = checkClock(r.at, ctx.now, ctx.limits.clockSkewMs);
  if (!clock.ok) return clock;
  if (r.proposal_id !== latest.proposal_id) {
    return fail(Code.STALE_PROPOSAL, 'Only the most recent proposal can be rejected.', { latest: latest.proposal_id });
  }
  if (r.by !== latest.to) return fail(Code.NOT_RECIPIENT, 'Only the recipient of the proposal can reject it.');

  return ok(advance(state, { type: 'reject', document: r, received_at: receivedAt(ctx.now) }, 'REJECTED'));
}

/** POST /oap/negotiation/{id}/withdraw: §3.1 Walk Away, by either party, before or after proposals. */
export function applyWithdrawal(
  state: NegotiationState,
  input: unknown,
  ctx: TransitionContext,
): Result<NegotiationState> {
  const parsed = parseDocument(Withdrawal, input, 'withdrawal');
  if (!parsed.ok) return parsed;
  const w = parsed.value;

  if (w.negotiation_id !== state.negotiation_id)
    return fail(Code.NEGOTIATION_MISMATCH, 'The withdrawal names another negotiation.');
  if (!isParty(state, w.by)) return fail(Code.NOT_A_PARTY, `${w.by} is not a party to this negotiation.`);
  const signed = verifySignature(w, w.by, 'withdrawal', ctx.verify);
  if (!signed.ok) return signed;
  const clock = checkClock(w.at, ctx.now, ctx.limits.clockSkewMs);
  if (!clock.ok) return clock;

  return ok(advance(state, { type: 'withdraw', document: w, received_at: receivedAt(ctx.now) }, 'WITHDRAWN'));
}
