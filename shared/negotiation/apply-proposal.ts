// `propose` and `counter` (RFC 0002 §3.2): POST /oap/negotiation/{id}/propose.
import { fail, ok, type Result } from '../errors';
import { termsWindowProblem } from './agreement';
import { Proposal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import {
  advance,
  isParty,
  otherParty,
  proposals,
  receivedAt,
  type NegotiationState,
  type TransitionContext,
} from './state';
import { parseDocument, verifySignature } from './verify-document';

export function applyProposal(
  state: NegotiationState,
  input: unknown,
  ctx: TransitionContext,
): Result<NegotiationState> {
  const parsed = parseDocument(Proposal, input, 'proposal');
  if (!parsed.ok) return parsed;
  const p = parsed.value;

  if (p.negotiation_id !== state.negotiation_id)
    return fail(Code.NEGOTIATION_MISMATCH, 'The proposal names another negotiation.');
  if (!isParty(state, p.from)) return fail(Code.NOT_A_PARTY, `${p.from} is not a party to this negotiation.`);
  if (p.to !== otherParty(state, p.from)) return fail(Code.INVALID_RECIPIENT, 'A proposal goes to the other party.');
  const signed = verifySignature(p, p.from, 'proposal', ctx.verify);
  if (!signed.ok) return signed;
  if (p.category !== state.category)
    return fail(Code.CATEGORY_MISMATCH, `This negotiation is about "${state.category}".`);

  const earlier = proposals(state);
  // §5 "Replay of Withdrawn Proposals": a proposal id is spent once, live or superseded.
  if (earlier.some((e) => e.proposal_id === p.proposal_id)) {
    return fail(Code.PROPOSAL_ID_REUSED, `Proposal ${p.proposal_id} was already submitted.`);
  }
  const latest = earlier.at(-1) ?? null;
  // §5: previous_proposal_id must be the most recent live proposal; null only for the first.
  const expectedPrevious = latest?.proposal_id ?? null;
  if (p.previous_proposal_id !== expectedPrevious) {
    return fail(Code.STALE_PREVIOUS_PROPOSAL, 'previous_proposal_id is not the most recent live proposal.', {
      expected: expectedPrevious,
    });
  }
  // A counter answers the other side (decisions: turns alternate).
  if (latest !== null && p.from === latest.from) {
    return fail(Code.NOT_YOUR_TURN, 'A party cannot counter its own proposal; the other party moves next.');
  }
  // §5 monotonic rounds: each proposal is the previous round + 1, starting at 1.
  const expectedRound = (latest?.round ?? 0) + 1;
  if (p.round !== expectedRound)
    return fail(Code.ROUND_NOT_MONOTONIC, `Expected round ${expectedRound}.`, { expected: expectedRound });
  if (p.round > state.max_rounds) {
    return fail(Code.MAX_ROUNDS_EXCEEDED, `This negotiation allows ${state.max_rounds} rounds (§3.6).`, {
      max_rounds: state.max_rounds,
    });
  }
  if (Date.parse(p.valid_until) <= ctx.now) return fail(Code.VALIDITY_INVALID, 'valid_until must be in the future.');
  const termsProblem = termsWindowProblem(p.terms);
  if (termsProblem !== null) return fail(Code.INVALID_TERMS, termsProblem);

  const item = { type: 'propose', document: p, received_at: receivedAt(ctx.now) } as const;
  return ok(advance(state, item, latest === null ? 'PROPOSED' : 'COUNTERED'));
}
