// How Agora failures are coded (docs/decisions-agora.md, "Error codes"). Every failure carries
// two stable strings: `code`, one of the spec's "Error Codes" table, which a foreign Agora peer
// understands and the server maps to an HTTP status; and `details.reason`, one per distinct
// failure, which tests, logs and the console key on. A reason always maps to the same code.
import type { ProtocolError } from '../errors';

/** Agora v1.0 "Error Codes" table. */
export const AGORA_ERROR_CODES = [
  'INVALID_REQUEST',
  'INTENT_NOT_SUPPORTED',
  'INSUFFICIENT_BUDGET',
  'TIMEOUT',
  'UNAVAILABLE',
  'FORBIDDEN',
  'INTERNAL_ERROR',
] as const;
export type AgoraErrorCode = (typeof AGORA_ERROR_CODES)[number];

/** Each distinct failure, with the spec code it is reported under. */
export const AgoraReason = {
  // checkIncoming, in pipeline order
  schema_invalid: 'INVALID_REQUEST',
  version_mismatch: 'INVALID_REQUEST',
  signature_malformed: 'INVALID_REQUEST',
  signer_invalid: 'INVALID_REQUEST',
  not_json: 'INVALID_REQUEST',
  // the relay's own limits (decisions-agora.md, "Relay")
  payload_too_large: 'INVALID_REQUEST',
  signature_invalid: 'FORBIDDEN',
  timestamp_too_old: 'TIMEOUT',
  timestamp_in_future: 'INVALID_REQUEST',
  id_conflict: 'FORBIDDEN',
  ttl_expired: 'TIMEOUT',
  // signing and the replay memory
  signer_mismatch: 'FORBIDDEN',
  replay_memory_full: 'UNAVAILABLE',
  // thread state machine
  thread_mismatch: 'INVALID_REQUEST',
  thread_not_started: 'INVALID_REQUEST',
  thread_already_started: 'INVALID_REQUEST',
  thread_not_pending: 'INVALID_REQUEST',
  thread_not_active: 'INVALID_REQUEST',
  thread_closed: 'INVALID_REQUEST',
  duplicate_accept: 'INVALID_REQUEST',
  duplicate_message: 'INVALID_REQUEST',
  request_id_mismatch: 'INVALID_REQUEST',
  recipient_mismatch: 'INVALID_REQUEST',
  offer_not_found: 'INVALID_REQUEST',
  offer_ambiguous: 'INVALID_REQUEST',
  offer_expired: 'INVALID_REQUEST',
  client_cannot_offer: 'FORBIDDEN',
  not_a_party: 'FORBIDDEN',
  not_the_client: 'FORBIDDEN',
  not_the_accepted_agent: 'FORBIDDEN',
  // the directory (decisions-agora.md, "Directory")
  manifest_invalid: 'INVALID_REQUEST',
  manifest_key_mismatch: 'FORBIDDEN',
  manifest_stale: 'INVALID_REQUEST',
  // A signed directory query whose id this signer already used (decisions-agora.md §39).
  query_replayed: 'FORBIDDEN',
  // An OACoP carrier (intent oacop.<type>) whose message is malformed (docs/decisions-oacop.md §A1).
  oacop_invalid_message: 'INVALID_REQUEST',
} as const satisfies Record<string, AgoraErrorCode>;
export type AgoraReason = keyof typeof AgoraReason;

export interface AgoraError extends ProtocolError {
  readonly code: AgoraErrorCode;
  readonly details: Readonly<{ reason: AgoraReason } & Record<string, unknown>>;
}

export type AgoraFailure = { readonly ok: false; readonly error: AgoraError };

export function agoraError(reason: AgoraReason, message: string, extra: Record<string, unknown> = {}): AgoraError {
  return { code: AgoraReason[reason], message, details: { ...extra, reason } };
}

export const agoraFail = (reason: AgoraReason, message: string, extra?: Record<string, unknown>): AgoraFailure => ({
  ok: false,
  error: agoraError(reason, message, extra),
});
