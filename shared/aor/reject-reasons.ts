// The reasons a candidate is refused, carried in `reject.payload.reason` (AOR §5.7). They are a
// public contract: never rename one.

export const RejectReason = {
  noMicGrant: 'no_mic_grant',
  micGrantExpired: 'mic_grant_expired',
  micRevoked: 'mic_revoked',
  messageTypeNotAllowed: 'message_type_not_allowed',
  messageLimitExceeded: 'message_limit_exceeded',
  invalidEnvelope: 'invalid_envelope',
  senderMismatch: 'sender_mismatch',
  roomMismatch: 'room_mismatch',
  /** Review mode: the candidate passed the gateway's rules and a facilitator declined it. */
  facilitatorRejected: 'facilitator_rejected',
} as const;

export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

/** The reasons the gateway's own rules produce (everything but a facilitator's decision). */
export type GatewayRejectReason = Exclude<RejectReason, 'facilitator_rejected'>;

/** The reasons a grant check can give, once the candidate itself is known to be well formed. */
export type GrantRejectReason = Extract<
  RejectReason,
  'no_mic_grant' | 'mic_grant_expired' | 'mic_revoked' | 'message_type_not_allowed' | 'message_limit_exceeded'
>;

export const REJECT_REASONS: readonly RejectReason[] = Object.values(RejectReason);

export const isRejectReason = (value: unknown): value is RejectReason =>
  typeof value === 'string' && (REJECT_REASONS as readonly string[]).includes(value);
