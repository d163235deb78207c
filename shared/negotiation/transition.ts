// The RFC 0002 §3.2 state machine: a pure `transition(state, event, ctx)` that refuses, with a
// coded error and without touching `state`, every step the RFC does not allow.
import { fail, type Result } from '../errors';
import { applyAcceptance } from './apply-acceptance';
import { applyProposal } from './apply-proposal';
import { applyRejection, applyWithdrawal } from './apply-rejection';
import { NegotiationErrorCode as Code } from './error-codes';
import { applyExpiry } from './expire';
import {
  hasExpired,
  isTerminal,
  latestProposal,
  type NegotiationEvent,
  type NegotiationState,
  type TransitionContext,
} from './state';

export function transition(
  state: NegotiationState,
  event: NegotiationEvent,
  ctx: TransitionContext,
): Result<NegotiationState> {
  if (typeof event !== 'object' || event === null)
    return fail(Code.INVALID_EVENT, 'An event must be an object with a type.');
  // §5 "Race Conditions": after the first acceptance (or any terminal step) nothing applies.
  if (isTerminal(state.status)) {
    return fail(Code.NEGOTIATION_TERMINAL, `The negotiation is ${state.status}; no further transitions.`, {
      status: state.status,
    });
  }
  if (event.type !== 'expire') {
    const latest = latestProposal(state);
    if (latest !== null && hasExpired(latest, ctx.now)) {
      return fail(Code.PROPOSAL_EXPIRED, `The most recent proposal expired at ${latest.valid_until}.`, {
        valid_until: latest.valid_until,
      });
    }
  }
  switch (event.type) {
    case 'propose':
      return applyProposal(state, event.document, ctx);
    case 'accept':
      return applyAcceptance(state, event.document, ctx);
    case 'reject':
      return applyRejection(state, event.document, ctx);
    case 'withdraw':
      return applyWithdrawal(state, event.document, ctx);
    case 'expire':
      return applyExpiry(state, ctx.now);
    default:
      return unknownEvent(event);
  }
}

// Keeps the compile-time exhaustiveness check of assertNever, but a malformed event from the
// wire is refused with a code instead of thrown.
function unknownEvent(event: never): Result<never> {
  return fail(Code.INVALID_EVENT, `Unknown event type ${JSON.stringify((event as { type?: unknown }).type)}.`);
}
