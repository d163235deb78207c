// `expire` (RFC 0002 §3.2): a negotiation whose most recent proposal is past `valid_until`
// ends in EXPIRED. Time is an input: the adapter calls `tick` with its clock before applying
// any event and whenever it wants lapsed negotiations closed.
import { fail, ok, type Result } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { advance, hasExpired, isTerminal, latestProposal, receivedAt, type NegotiationState } from './state';

export function applyExpiry(state: NegotiationState, now: number): Result<NegotiationState> {
  const latest = latestProposal(state);
  // An OPEN negotiation has no valid_until to lapse; it ends by withdrawal (decisions: expiry).
  if (latest === null || !hasExpired(latest, now)) {
    return fail(Code.NOT_EXPIRED, 'Nothing has expired.', latest === null ? {} : { valid_until: latest.valid_until });
  }
  return ok(
    advance(state, { type: 'expire', proposal_id: latest.proposal_id, received_at: receivedAt(now) }, 'EXPIRED'),
  );
}

/** EXPIRED if due, otherwise the very same state object (so callers can test `next === state`). */
export function tick(state: NegotiationState, now: number): NegotiationState {
  if (isTerminal(state.status)) return state;
  const expired = applyExpiry(state, now);
  return expired.ok ? expired.value : state;
}
