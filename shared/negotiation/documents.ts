// The signed documents of RFC 0002. The proposal is §3.4 field for field; the RFC leaves the
// bodies of open, accept, reject and withdraw undefined, so they are defined here
// (docs/decisions-negotiation.md). Each carries a `type` so that a signature made for one
// kind of document can never be replayed as another. Objects are strict: every accepted field
// is one the signature covers and the state machine understands.
import { z } from 'zod';
import { signDocument } from '../crypto/signed-document';
import { ConfidentialityClass, RegulatedProfession } from './confidentiality';
import { Category, NegotiationId, PartyDid, ProposalId, SaltSeed, Signature, Terms, Timestamp } from './primitives';

const Reason = z.string().max(1000);

export const OpenDocument = z.strictObject({
  type: z.literal('open'),
  negotiation_id: NegotiationId,
  // An array, not a tuple, so that "three parties" is refused with PARTIES_INVALID by name.
  parties: z.array(PartyDid),
  opened_by: PartyDid,
  category: Category,
  max_rounds: z.int().min(1).max(1000).optional(),
  /** §3.7: each party's confidentiality class, keyed by DID; both parties must appear. */
  confidentiality: z.record(PartyDid, ConfidentialityClass),
  /** §3.7: parties that practise a regulated profession; absent means unregulated. */
  regulated: z.record(PartyDid, RegulatedProfession).optional(),
  at: Timestamp,
  signature: Signature,
});
export type OpenDocument = z.infer<typeof OpenDocument>;

/** RFC 0002 §3.4. */
export const Proposal = z.strictObject({
  proposal_id: ProposalId,
  negotiation_id: NegotiationId,
  previous_proposal_id: ProposalId.nullable(),
  from: PartyDid,
  to: PartyDid,
  round: z.int().min(1),
  category: Category,
  terms: Terms,
  valid_until: Timestamp,
  signature: Signature,
});
export type Proposal = z.infer<typeof Proposal>;

/**
 * §3.5, §5 "Acceptance MUST be co signed by the receiving Party": the recipient signs this
 * document and, in `agreement_signature`, the agreement the acceptance produces.
 */
export const Acceptance = z.strictObject({
  type: z.literal('accept'),
  negotiation_id: NegotiationId,
  proposal_id: ProposalId,
  by: PartyDid,
  at: Timestamp,
  /** Seed of the agreement's per-field salts, drawn by the accepter (field-commitments.ts). */
  salt_seed: SaltSeed,
  agreement_signature: Signature,
  signature: Signature,
});
export type Acceptance = z.infer<typeof Acceptance>;

export const Rejection = z.strictObject({
  type: z.literal('reject'),
  negotiation_id: NegotiationId,
  proposal_id: ProposalId,
  by: PartyDid,
  at: Timestamp,
  reason: Reason.optional(),
  signature: Signature,
});
export type Rejection = z.infer<typeof Rejection>;

/** §3.1 Walk Away: a signed withdrawal that ends the negotiation without an agreement. */
export const Withdrawal = z.strictObject({
  type: z.literal('withdraw'),
  negotiation_id: NegotiationId,
  by: PartyDid,
  at: Timestamp,
  reason: Reason.optional(),
  signature: Signature,
});
export type Withdrawal = z.infer<typeof Withdrawal>;

export type SignedDocument = OpenDocument | Proposal | Acceptance | Rejection | Withdrawal;
export type Unsigned<T extends SignedDocument> = Omit<T, 'signature'>;

/** Signs any negotiation document the way the state machine verifies it (JCS without `signature`). */
export function signNegotiationDocument<T extends SignedDocument>(body: Unsigned<T>, secretKey: Uint8Array): T {
  return signDocument(body, 'signature', secretKey) as unknown as T;
}
