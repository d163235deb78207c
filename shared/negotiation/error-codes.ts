// Stable codes for every refusal in RFC 0002's core. The server maps them to HTTP statuses in
// one place; docs/decisions-negotiation.md says which rule each one enforces.
export const NegotiationErrorCode = {
  /** A document or event does not match its schema (details.issues lists where). */
  INVALID_DOCUMENT: 'INVALID_DOCUMENT',
  /** An event type the state machine does not know. */
  INVALID_EVENT: 'INVALID_EVENT',
  /** The Tool's manifest does not declare negotiation (RFC 0002 §4) or only non-binding acceptance. */
  NEGOTIATION_NOT_SUPPORTED: 'NEGOTIATION_NOT_SUPPORTED',
  /** The category is not among the manifest's `categories` (§3.6). */
  CATEGORY_NOT_SUPPORTED: 'CATEGORY_NOT_SUPPORTED',
  /** Not exactly two distinct parties, or declarations that name someone else (§3.1). */
  PARTIES_INVALID: 'PARTIES_INVALID',
  /** A document names another negotiation than the one it is applied to. */
  NEGOTIATION_MISMATCH: 'NEGOTIATION_MISMATCH',
  /** `open` with a negotiation_id the Tool already holds (decisions: the body of open). */
  NEGOTIATION_ID_REUSED: 'NEGOTIATION_ID_REUSED',
  /** The negotiation is ACCEPTED, REJECTED, EXPIRED or WITHDRAWN (§3.2, §5 "Race Conditions"). */
  NEGOTIATION_TERMINAL: 'NEGOTIATION_TERMINAL',
  /** The event is not allowed from the current status (§3.2), e.g. accept while OPEN. */
  INVALID_TRANSITION: 'INVALID_TRANSITION',
  /** The signer is not one of the two parties. */
  NOT_A_PARTY: 'NOT_A_PARTY',
  /** A proposal's `to` is not the other party. */
  INVALID_RECIPIENT: 'INVALID_RECIPIENT',
  /** The document's signature does not verify against its signer's did:key. */
  SIGNATURE_INVALID: 'SIGNATURE_INVALID',
  /** A signed `at` is further from the Tool's clock than the allowed skew. */
  CLOCK_SKEW: 'CLOCK_SKEW',
  /** A proposal's category differs from the negotiation's. */
  CATEGORY_MISMATCH: 'CATEGORY_MISMATCH',
  /** A proposal_id already used in this negotiation (a replay, §5). */
  PROPOSAL_ID_REUSED: 'PROPOSAL_ID_REUSED',
  /** `previous_proposal_id` is not the most recent live proposal (§5 "Replay"). */
  STALE_PREVIOUS_PROPOSAL: 'STALE_PREVIOUS_PROPOSAL',
  /** A party countered its own proposal: turns alternate. */
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  /** `round` is not the previous round + 1 (§5 "monotonic round numbers"). */
  ROUND_NOT_MONOTONIC: 'ROUND_NOT_MONOTONIC',
  /** The round would exceed `max_rounds` (§3.6). */
  MAX_ROUNDS_EXCEEDED: 'MAX_ROUNDS_EXCEEDED',
  /** A new proposal's `valid_until` is not in the future. */
  VALIDITY_INVALID: 'VALIDITY_INVALID',
  /** Reserved terms (`effective_from`, `effective_until`) are malformed. */
  INVALID_TERMS: 'INVALID_TERMS',
  /** Accept or reject names a proposal that is not the most recent one (§3.3). */
  STALE_PROPOSAL: 'STALE_PROPOSAL',
  /** Accept or reject comes from the proposer instead of the recipient (§5 "Signature Theft"). */
  NOT_RECIPIENT: 'NOT_RECIPIENT',
  /** The most recent proposal is past `valid_until`; only `expire` applies now. */
  PROPOSAL_EXPIRED: 'PROPOSAL_EXPIRED',
  /** `expire` while nothing has expired. */
  NOT_EXPIRED: 'NOT_EXPIRED',
  /** An agreement document does not match its schema or names a non-party signer. */
  AGREEMENT_INVALID: 'AGREEMENT_INVALID',
  /** `agreement_hash` is not the hash of the agreement's field commitments. */
  AGREEMENT_HASH_MISMATCH: 'AGREEMENT_HASH_MISMATCH',
  /** A signature over the agreement does not verify. */
  AGREEMENT_SIGNATURE_INVALID: 'AGREEMENT_SIGNATURE_INVALID',
  /** The party has already signed the agreement. */
  AGREEMENT_ALREADY_SIGNED: 'AGREEMENT_ALREADY_SIGNED',
  /** A redaction names a material field (§6 allows only non-material content). */
  MATERIAL_FIELD_REDACTED: 'MATERIAL_FIELD_REDACTED',
  /** A redaction names a field the agreement does not have. */
  UNKNOWN_FIELD: 'UNKNOWN_FIELD',
  /** Disclosed fields do not hash to the entry's integrity hash (§6). */
  INTEGRITY_MISMATCH: 'INTEGRITY_MISMATCH',
  /** A log entry or proof does not match its schema. */
  LOG_ENTRY_INVALID: 'LOG_ENTRY_INVALID',
  /** An entry's index is not its position. */
  LOG_INDEX_MISMATCH: 'LOG_INDEX_MISMATCH',
  /** An entry's prev_hash is not the previous entry's hash. */
  LOG_PREV_HASH_MISMATCH: 'LOG_PREV_HASH_MISMATCH',
  /** An entry's entry_hash is not the hash of its link. */
  LOG_ENTRY_HASH_MISMATCH: 'LOG_ENTRY_HASH_MISMATCH',
  /** An entry's timestamp is earlier than its predecessor's. */
  LOG_TIMESTAMP_REGRESSION: 'LOG_TIMESTAMP_REGRESSION',
  /** An inclusion proof does not end at the given head hash. */
  LOG_HEAD_MISMATCH: 'LOG_HEAD_MISMATCH',
  /** An inclusion proof asked for an index the log does not have. */
  LOG_INDEX_OUT_OF_RANGE: 'LOG_INDEX_OUT_OF_RANGE',
} as const;

export type NegotiationErrorCode = (typeof NegotiationErrorCode)[keyof typeof NegotiationErrorCode];
