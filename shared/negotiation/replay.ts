// Rebuilds a negotiation from its signed history (GET /oap/negotiation/{id}) by running every
// step through the same functions that accepted it, each at its own `received_at`. A browser
// or agent can so check a history it did not witness, and a store can check what it loads:
// a forged, reordered or dropped step fails with the code the state machine would have given.
import { fail, ok, type Result } from '../errors';
import { cosignAgreement } from './cosign';
import { NegotiationErrorCode as Code } from './error-codes';
import type { NegotiationLimits } from './manifest';
import { openNegotiation } from './open-negotiation';
import { HistoryItem, latestProposal, type NegotiationState } from './state';
import { transition } from './transition';
import { parseDocument } from './verify-document';

/** `limits` are the ones in force when the negotiation was opened (categories, max_rounds, skew). */
export function replayHistory(history: readonly unknown[], limits: NegotiationLimits): Result<NegotiationState> {
  let state: NegotiationState | null = null;
  for (const [index, raw] of history.entries()) {
    const parsed = parseDocument(HistoryItem, raw, 'history item');
    if (!parsed.ok) return withIndex(parsed, index);
    const item = parsed.value;
    const ctx = { now: Date.parse(item.received_at), limits };
    let next: Result<NegotiationState>;
    if (state === null) {
      next =
        item.type === 'open'
          ? openNegotiation(item.document, ctx)
          : fail(Code.INVALID_TRANSITION, 'A history starts with its open document.');
    } else {
      switch (item.type) {
        case 'open':
          next = fail(Code.INVALID_TRANSITION, 'A negotiation is opened once.');
          break;
        case 'expire':
          // Expiry names the proposal that lapsed; a history naming another one was edited.
          next =
            latestProposal(state)?.proposal_id === item.proposal_id
              ? transition(state, { type: 'expire' }, ctx)
              : fail(Code.INVALID_TRANSITION, 'The expiry names another proposal than the latest.');
          break;
        case 'cosign':
          next = cosignAgreement(state, { by: item.by, signature: item.signature }, ctx.now);
          break;
        case 'propose':
        case 'accept':
        case 'reject':
        case 'withdraw':
          next = transition(state, { type: item.type, document: item.document }, ctx);
      }
    }
    if (!next.ok) return withIndex(next, index);
    state = next.value;
  }
  return state === null ? fail(Code.INVALID_DOCUMENT, 'An empty history has no negotiation.') : ok(state);
}

const withIndex = <T>(r: Result<T> & { ok: false }, index: number): Result<T> =>
  fail(r.error.code, `History item ${index}: ${r.error.message}`, { ...r.error.details, index });
