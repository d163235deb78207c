// `accept` (RFC 0002 §3.2, §3.5): POST /oap/negotiation/{id}/accept. The first valid acceptance
// is terminal (§5 "Race Conditions") and produces the agreement, signed by the accepter.
import { fail, ok, type Result } from '../errors';
import { agreementSignatureVerifies, buildAgreement, type Agreement } from './agreement';
import { Acceptance, type Proposal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { checkAnswer, checkAnswersLatest } from './answer-checks';
import { advance, latestProposal, receivedAt, type NegotiationState, type TransitionContext } from './state';
import { parseDocument } from './verify-document';

export function applyAcceptance(
  state: NegotiationState,
  input: unknown,
  ctx: TransitionContext,
): Result<NegotiationState> {
  const latest = latestProposal(state);
  if (latest === null)
    return fail(Code.INVALID_TRANSITION, 'There is no proposal to accept yet.', { status: state.status });
  const parsed = parseDocument(Acceptance, input, 'acceptance');
  if (!parsed.ok) return parsed;
  const a = parsed.value;

  const checked = checkAnswer(state, a, 'acceptance', ctx);
  if (!checked.ok) return checked;
  const answers = checkAnswersLatest(latest, a, 'accept');
  if (!answers.ok) return answers;

  const agreement = agreementOnAcceptance(state, latest, a.at, a.salt_seed);
  if (!agreementSignatureVerifies(agreement, a.by, a.agreement_signature, ctx.verify)) {
    return fail(
      Code.AGREEMENT_SIGNATURE_INVALID,
      'agreement_signature does not sign the agreement this acceptance produces.',
      {
        agreement_id: agreement.agreement_id,
        agreement_hash: agreement.agreement_hash,
      },
    );
  }
  const signedAgreement = { ...agreement, signatures: { [a.by]: a.agreement_signature } };
  const item = { type: 'accept', document: a, received_at: receivedAt(ctx.now) } as const;
  return ok(advance(state, item, 'ACCEPTED', { agreement: signedAgreement }));
}

/**
 * The agreement that accepting `proposal` at `acceptedAt` with `saltSeed` produces: what the
 * accepter's client shows and signs as `agreement_signature`, and what the transition checks.
 */
export function agreementOnAcceptance(
  state: NegotiationState,
  proposal: Proposal,
  acceptedAt: string,
  saltSeed: string,
): Agreement {
  return buildAgreement({
    negotiation_id: state.negotiation_id,
    parties: state.parties,
    confidentiality: state.confidentiality,
    regulated_obligations: state.regulated_obligations,
    proposal,
    accepted_at: acceptedAt,
    salt_seed: saltSeed,
  });
}
