// Which shape an error body takes is a property of the route family, not of the error
// (decisions-server.md, "Errors by route family"): the Agora relay's routes answer
// `{ ok: false, code, message, details }` (decisions-agora.md, "HTTP statuses"), every other
// route `{ code, message, details? }`. A route declares its family with
// `agoraErrors`; http/errors.ts reads it.
import { createMiddleware } from 'hono/factory';
import type { AgoraError } from '@shared/agora/reject-reasons';
import { CodedError } from '@shared/errors';

export type ErrorFamily = 'coded' | 'agora';

declare module 'hono' {
  interface ContextVariableMap {
    errorFamily: ErrorFamily;
  }
}

/** Marks the routes after it as the Agora relay's: their errors take its shape. */
export const agoraErrors = createMiddleware(async (c, next) => {
  c.set('errorFamily', 'agora');
  await next();
});

/** A refusal by the relay, coded by Agora's table: its status comes from the code and `details.reason`. */
export class AgoraRefusal extends CodedError {
  declare readonly details: AgoraError['details'];
  constructor(readonly error: AgoraError) {
    super(error.code, error.message, error.details);
  }
}

/** 429 RATE_LIMITED; the error handler adds Retry-After from `details.retryAfterSeconds`. */
export const rateLimited = (retryAfterSeconds: number, what = 'requests'): CodedError =>
  new CodedError('RATE_LIMITED', `Too many ${what}; try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
