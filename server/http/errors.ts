// The one place where errors become HTTP answers: routes and middleware throw,
// app.onError calls handleError, which picks the status from the error and the body's shape from
// the route's family (http/error-family.ts): `{ code, message, details? }`, or the
// Agora relay's `{ ok: false, code, message, details }`.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { agoraError } from '@shared/agora/reject-reasons';
import { AgoraErrorBody, CodedErrorBody } from '@shared/contract/errors';
import { isCodedError, type ErrorDetails } from '@shared/errors';
import type { NegotiationErrorCode } from '@shared/negotiation/error-codes';
import { moduleLogger } from '../logging/logger';
import { storageFailure } from '../store/storage-errors';
import { AgoraRefusal, type ErrorFamily } from './error-family';
import { reply } from './reply';
import { BodyRefusal } from './request-body';

const log = moduleLogger('http');

const NEGOTIATION_STATUS_BY_CODE: Readonly<Record<NegotiationErrorCode, ContentfulStatusCode>> = {
  INVALID_DOCUMENT: 400,
  INVALID_EVENT: 400,
  LOG_ENTRY_INVALID: 400,
  SIGNATURE_INVALID: 401,
  AGREEMENT_SIGNATURE_INVALID: 401,
  NOT_A_PARTY: 403,
  NOT_RECIPIENT: 403,
  LOG_INDEX_OUT_OF_RANGE: 404,
  NEGOTIATION_ID_REUSED: 409,
  NEGOTIATION_TERMINAL: 409,
  INVALID_TRANSITION: 409,
  PROPOSAL_ID_REUSED: 409,
  STALE_PREVIOUS_PROPOSAL: 409,
  STALE_PROPOSAL: 409,
  NOT_YOUR_TURN: 409,
  ROUND_NOT_MONOTONIC: 409,
  PROPOSAL_EXPIRED: 409,
  NOT_EXPIRED: 409,
  AGREEMENT_ALREADY_SIGNED: 409,
  NEGOTIATION_NOT_SUPPORTED: 422,
  CATEGORY_NOT_SUPPORTED: 422,
  CATEGORY_MISMATCH: 422,
  PARTIES_INVALID: 422,
  NEGOTIATION_MISMATCH: 422,
  INVALID_RECIPIENT: 422,
  CLOCK_SKEW: 422,
  MAX_ROUNDS_EXCEEDED: 422,
  VALIDITY_INVALID: 422,
  INVALID_TERMS: 422,
  AGREEMENT_INVALID: 422,
  AGREEMENT_HASH_MISMATCH: 422,
  MATERIAL_FIELD_REDACTED: 422,
  UNKNOWN_FIELD: 422,
  INTEGRITY_MISMATCH: 422,
  LOG_INDEX_MISMATCH: 422,
  LOG_PREV_HASH_MISMATCH: 422,
  LOG_ENTRY_HASH_MISMATCH: 422,
  LOG_TIMESTAMP_REGRESSION: 422,
  LOG_HEAD_MISMATCH: 422,
};

const STATUS_BY_CODE: Readonly<Record<string, ContentfulStatusCode>> = {
  // RFC 0002 negotiations (shared/negotiation/error-codes.ts; docs/decisions-negotiation.md §24):
  // 400 the document is malformed, 401 a signature fails, 403 the signer may not do this,
  // 404 no such log entry, 409 the negotiation's state refuses it now, 422 the document is
  // well formed but its content breaks a rule of the negotiation or the manifest.
  ...NEGOTIATION_STATUS_BY_CODE,
  INVALID_REQUEST: 400,
  JSON_TOO_DEEP: 400,
  UNAUTHORIZED: 401,
  // RFC 9421 signed reads of a negotiation (negotiation/read-access.ts).
  HTTP_SIGNATURE_MISSING: 401,
  HTTP_SIGNATURE_INVALID: 401,
  HTTP_SIGNATURE_EXPIRED: 401,
  HTTP_SIGNATURE_REPLAYED: 401,
  // The local ledger (oacop/ledger.ts): a DID burns only what it holds.
  INSUFFICIENT_BALANCE: 402,
  // Operator login and enrollment (routes/auth.ts).
  CHALLENGE_INVALID: 401,
  SIGNATURE_INVALID: 401,
  ENROLLMENT_INVALID: 401,
  FORBIDDEN: 403,
  NOT_ENROLLED: 403,
  CSRF_REJECTED: 403,
  NOT_FOUND: 404,
  ROOM_NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  // A Host this server is not known by (http/host-check.ts).
  MISDIRECTED_REQUEST: 421,
  RATE_LIMITED: 429,
  // External services (server/external/): a write to a read-only one, one that answered
  // something the proxy does not pass on (decisions-server.md §40), one that is down.
  SERVICE_READ_ONLY: 403,
  SERVICE_BAD_ANSWER: 502,
  SERVICE_UNAVAILABLE: 503,
  // A2A Agent Card imports (routes/directory-imports.ts; decisions-mcp.md §10): the guard refused
  // the URL's address, the card's host did not answer or answered too much, or not a card.
  CARD_URL_NOT_PUBLIC: 400,
  CARD_INVALID: 422,
  CARD_UNREACHABLE: 502,
  CARD_TOO_LARGE: 502,
  // Agents under control (routes/agent-accounts.ts; decisions-server.md §62, §63).
  AGENT_NOT_FOUND: 404,
  AGENT_EXISTS: 409,
  BROKER_UNAVAILABLE: 502,
  // Agents' MCP sessions (routes/mcp.ts; decisions-mcp.md §1).
  AGENT_SUSPENDED: 403,
  MCP_SESSION_NOT_FOUND: 404,
  MCP_SESSION_LIMIT: 429,
  // Operators and invitations (routes/operator-admin.ts; decisions-server.md §84).
  OPERATOR_NOT_FOUND: 404,
  INVITE_NOT_FOUND: 404,
  LAST_FACILITATOR: 409,
};

// Hono's own HTTPExceptions (malformed JSON from the validator, …) get the code of their status.
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

/**
 * Agora failures (docs/decisions-agora.md, "HTTP statuses"): the spec table's code decides,
 * refined by `details.reason` where HTTP has a better word (too large, conflict with the
 * thread's state or a used id, temporarily full).
 */
const AGORA_STATUS_BY_CODE: Readonly<Record<string, ContentfulStatusCode>> = {
  INVALID_REQUEST: 400,
  INTENT_NOT_SUPPORTED: 400,
  INSUFFICIENT_BUDGET: 400,
  TIMEOUT: 400,
  FORBIDDEN: 403,
  UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};
const AGORA_STATUS_BY_REASON: Readonly<Record<string, ContentfulStatusCode>> = {
  payload_too_large: 413,
  id_conflict: 409,
  manifest_stale: 409,
  replay_memory_full: 503,
  thread_not_started: 409,
  thread_already_started: 409,
  thread_not_pending: 409,
  thread_not_active: 409,
  thread_closed: 409,
  duplicate_accept: 409,
  duplicate_message: 409,
  offer_expired: 409,
};

export function statusForAgoraError(error: {
  readonly code: string;
  readonly details?: { readonly reason?: unknown };
}): ContentfulStatusCode {
  const reason = error.details?.reason;
  return (
    (typeof reason === 'string' ? AGORA_STATUS_BY_REASON[reason] : undefined) ?? AGORA_STATUS_BY_CODE[error.code] ?? 400
  );
}

export function statusForCode(code: string): ContentfulStatusCode {
  return STATUS_BY_CODE[code] ?? 400;
}

/** An error as the one handler answers it: status, and the fields of either family's body. */
interface Answer {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly message: string;
  readonly details?: ErrorDetails;
}

/** The request, as the request log names it: never the URL, whose path or query may hold a token. */
const where = (c: Context) => ({ reqId: c.get('reqId'), method: c.req.method, route: routePath(c) || null });

function answerFor(error: unknown, family: ErrorFamily, c: Context): Answer {
  if (error instanceof AgoraRefusal)
    return {
      status: statusForAgoraError(error.error),
      code: error.code,
      message: error.message,
      details: error.details,
    };
  // On the relay's routes a body it will not read is an Agora refusal like any other (payload_too_large, not_json).
  if (error instanceof BodyRefusal && family === 'agora') {
    const refusal = agoraError(error.agoraReason, error.message, error.details);
    return {
      status: statusForAgoraError(refusal),
      code: refusal.code,
      message: refusal.message,
      details: refusal.details,
    };
  }
  if (isCodedError(error))
    return {
      status: statusForCode(error.code),
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    };
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return { status, code: CODE_BY_STATUS[status] ?? 'INVALID_REQUEST', message: error.message || 'Request refused.' };
  }
  // A full disk or read-only DATA_DIR: the operator's to fix, and the client may retry.
  const storage = storageFailure(error);
  if (storage) {
    log.error({ ...where(c), code: storage.code, err: error }, 'storage failure while serving');
    return { status: 503, code: storage.code, message: storage.message };
  }
  log.error({ ...where(c), code: 'INTERNAL_ERROR', err: error }, 'unhandled error while serving');
  return {
    status: 500,
    code: 'INTERNAL_ERROR',
    message: 'The server failed to handle this request; it has been logged.',
  };
}

/** app.onError: every error body is shaped here, in the family of the route that threw. */
export function handleError(error: unknown, c: Context): Response {
  const family = c.get('errorFamily') ?? 'coded';
  const answer = answerFor(error, family, c);
  const retryAfter = answer.code === 'RATE_LIMITED' ? answer.details?.['retryAfterSeconds'] : undefined;
  if (typeof retryAfter === 'number') c.header('Retry-After', String(retryAfter));
  const body = { code: answer.code, message: answer.message, ...(answer.details ? { details: answer.details } : {}) };
  return family === 'agora'
    ? reply(c, AgoraErrorBody, { ok: false as const, ...body }, answer.status)
    : reply(c, CodedErrorBody, body, answer.status);
}
