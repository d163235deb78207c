// OSNAP defines no error codes of its own (its `error_code` is an application field of the
// error_handling message), so ours are prefixed and listed here, one per failure.
import type { ProtocolError } from '../errors';

export const OsnapErrorCode = {
  /** Not an object, or fails the schema of its message_type; details.issues says where. */
  INVALID_MESSAGE: 'OSNAP_INVALID_MESSAGE',
  /** message_type is none of the five types, the discovery types, or a known alias. */
  UNKNOWN_MESSAGE_TYPE: 'OSNAP_UNKNOWN_MESSAGE_TYPE',
  /** GET /agents with a scope other than public|private, or an empty capability. */
  INVALID_QUERY: 'OSNAP_INVALID_QUERY',
} as const;
export type OsnapErrorCode = (typeof OsnapErrorCode)[keyof typeof OsnapErrorCode];

export interface OsnapError extends ProtocolError {
  readonly code: OsnapErrorCode;
}

export const osnapFail = (
  code: OsnapErrorCode,
  message: string,
  details?: Record<string, unknown>,
): { readonly ok: false; readonly error: OsnapError } => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

/** zod issues as plain data for an error body. */
export const issueList = (issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]) =>
  issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
