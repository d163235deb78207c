// `reject` and `withdraw` (RFC 0002 §3.2): the two terminal steps that produce no agreement.
import { fail, ok, type Result } from '../errors';
import { Rejection, Withdrawal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { checkAnswer, checkAnswersLatest } from './answer-checks';
import { advance, latestProposal, receivedAt, type NegotiationState, type TransitionContext } from './state';
import { parseDocument } from './verify-document';

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

  const checked = checkAnswer(state, r, 'rejection', ctx);
  if (!checked.ok) return checked;
  const answers = checkAnswersLatest(latest, r, 'reject');
  if (!answers.ok) return answers;

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

  const checked = checkAnswer(state, w, 'withdrawal', ctx);
  if (!checked.ok) return checked;

  return ok(advance(state, { type: 'withdraw', document: w, received_at: receivedAt(ctx.now) }, 'WITHDRAWN'));
}
