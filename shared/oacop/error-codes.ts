// OACoP §5 error codes, plus the few refusals this project needs that §5 does not name.
// Every refusal in shared/oacop carries one of these as its `code`.

/** The codes an `OACoPError` may carry on the wire (OACoP §5), exactly as the spec spells them. */
export const OacopErrorCode = {
  CONFLICT: 'OACOP_CONFLICT',
  STALE_REVISION: 'OACOP_STALE_REVISION',
  INVALID_ICAL: 'OACOP_INVALID_ICAL',
  PAYMENT_REQUIRED: 'OACOP_PAYMENT_REQUIRED',
  UNSUPPORTED_CONSTRAINT: 'OACOP_UNSUPPORTED_CONSTRAINT',
} as const;
export type OacopErrorCode = (typeof OacopErrorCode)[keyof typeof OacopErrorCode];

/**
 * Project codes for what §5 leaves out (docs/decisions-oacop.md, "Error codes"). They keep the
 * `OACOP_` prefix so a receiver can tell which layer refused.
 */
export const OacopLocalErrorCode = {
  /** The message breaks a §7 schema or a §2–§4 prose rule. */
  INVALID_MESSAGE: 'OACOP_INVALID_MESSAGE',
  /** The sender lacks the role for this message (e.g. a participant confirming, §3.4.1). */
  NOT_AUTHORIZED: 'OACOP_NOT_AUTHORIZED',
  /** The message is well formed and current but not allowed in the thread's or task's state. */
  INVALID_TRANSITION: 'OACOP_INVALID_TRANSITION',
  /** Tasks whose `parentTaskId` or `dependencies` form a cycle. */
  TASK_CYCLE: 'OACOP_TASK_CYCLE',
  /** §6.1.3 "Enforce rate limiting per DID": an unknown DID asked too often; retry later. */
  RATE_LIMITED: 'OACOP_RATE_LIMITED',
} as const;
export type OacopLocalErrorCode = (typeof OacopLocalErrorCode)[keyof typeof OacopLocalErrorCode];

export type AnyOacopErrorCode = OacopErrorCode | OacopLocalErrorCode;
