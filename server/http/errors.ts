// The one place where coded errors become HTTP statuses (STYLE.md rule 5). Every error body is
// `{ code, message }` (BRIEF.md), whatever threw it.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isCodedError } from '@shared/errors';

const STATUS_BY_CODE: Readonly<Record<string, ContentfulStatusCode>> = {
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
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
  RATE_LIMITED: 429,
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

export function statusForAgoraError(error: { readonly code: string; readonly details?: { readonly reason?: unknown } }): ContentfulStatusCode {
  const reason = error.details?.reason;
  return (typeof reason === 'string' ? AGORA_STATUS_BY_REASON[reason] : undefined) ?? AGORA_STATUS_BY_CODE[error.code] ?? 400;
}

export function statusForCode(code: string): ContentfulStatusCode {
  return STATUS_BY_CODE[code] ?? 400;
}

export function handleError(error: unknown, c: Context): Response {
  if (isCodedError(error)) {
    return c.json({ code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }, statusForCode(error.code));
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return c.json({ code: CODE_BY_STATUS[status] ?? 'INVALID_REQUEST', message: error.message || 'Request refused.' }, status);
  }
  console.error('Unhandled error while serving', c.req.method, c.req.path, error);
  return c.json({ code: 'INTERNAL_ERROR', message: 'The server failed to handle this request; it has been logged.' }, 500);
}
