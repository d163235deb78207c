// `start → OPEN` (RFC 0002 §3.2) from a signed open document (POST /oap/negotiation/open).
import { fail, ok, type Result } from '../errors';
import { mostRestrictive, regulatedObligations, type ConfidentialityClass } from './confidentiality';
import { OpenDocument } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { toTimestamp, type PartyDid } from './primitives';
import type { NegotiationState, TransitionContext } from './state';
import { checkClock, parseDocument, verifySignature } from './verify-document';

export function openNegotiation(input: unknown, ctx: TransitionContext): Result<NegotiationState> {
  const parsed = parseDocument(OpenDocument, input, 'open');
  if (!parsed.ok) return parsed;
  const doc = parsed.value;

  // §3.1 "exactly two Negotiating Parties" wins over §1's "two or more" (decisions: parties).
  if (doc.parties.length !== 2 || doc.parties[0] === doc.parties[1]) {
    return fail(Code.PARTIES_INVALID, 'A negotiation has exactly two distinct parties (RFC 0002 §3.1).', {
      count: doc.parties.length,
    });
  }
  const parties = [doc.parties[0], doc.parties[1]] as [PartyDid, PartyDid];
  if (!parties.includes(doc.opened_by)) return fail(Code.NOT_A_PARTY, 'opened_by must be one of the two parties.');

  const declared = Object.keys(doc.confidentiality);
  if (declared.length !== 2 || !parties.every((p) => doc.confidentiality[p] !== undefined)) {
    return fail(Code.PARTIES_INVALID, 'confidentiality must declare a class for each party and no one else (§3.7).');
  }
  const regulated = doc.regulated ?? {};
  if (Object.keys(regulated).some((did) => !parties.includes(did as PartyDid))) {
    return fail(Code.PARTIES_INVALID, 'regulated may only name the parties (§3.7).');
  }

  const signed = verifySignature(doc, doc.opened_by, 'open', ctx.verify);
  if (!signed.ok) return signed;
  const clock = checkClock(doc.at, ctx.now, ctx.limits.clockSkewMs);
  if (!clock.ok) return clock;

  const { categories, maxRounds } = ctx.limits;
  if (categories !== null && !categories.includes(doc.category)) {
    return fail(Code.CATEGORY_NOT_SUPPORTED, `Category "${doc.category}" is not offered (§3.6).`, { categories });
  }
  if (doc.max_rounds !== undefined && doc.max_rounds > maxRounds) {
    return fail(Code.MAX_ROUNDS_EXCEEDED, `max_rounds ${doc.max_rounds} exceeds this Tool's ${maxRounds} (§3.6).`, {
      max_rounds: maxRounds,
    });
  }

  const classes = parties.map((p) => doc.confidentiality[p]) as [ConfidentialityClass, ConfidentialityClass];
  const receivedAt = toTimestamp(ctx.now);
  return ok({
    negotiation_id: doc.negotiation_id,
    status: 'OPEN',
    parties,
    opened_by: doc.opened_by,
    category: doc.category,
    max_rounds: doc.max_rounds ?? maxRounds,
    confidentiality: mostRestrictive(...classes),
    regulated_obligations: regulatedObligations(parties, regulated),
    history: [{ type: 'open', document: doc, received_at: receivedAt }],
    agreement: null,
    updated_at: receivedAt,
  });
}
