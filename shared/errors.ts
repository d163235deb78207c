// Coded errors shared by every protocol. Domain code throws or returns these; HTTP
// status codes are assigned in exactly one place on the server.

export type ErrorDetails = Readonly<Record<string, unknown>>;

/** A failure with a stable, machine-readable `code` and a sentence for people. */
export interface ProtocolError {
  readonly code: string;
  readonly message: string;
  readonly details?: ErrorDetails;
}

/** The thrown form of a {@link ProtocolError}, for boundaries where throwing reads better. */
export class CodedError extends Error implements ProtocolError {
  readonly code: string;
  readonly details?: ErrorDetails;

  constructor(code: string, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'CodedError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }

  toJSON(): ProtocolError {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Outcome of a pure transition: the next value, or why it was refused. */
export type Result<T, E extends ProtocolError = ProtocolError> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });

export const fail = <C extends string>(
  code: C,
  message: string,
  details?: ErrorDetails,
): { readonly ok: false; readonly error: ProtocolError & { readonly code: C } } => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

export const isCodedError = (value: unknown): value is CodedError => value instanceof CodedError;

/** Unwraps a Result, throwing its error as a {@link CodedError}. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new CodedError(result.error.code, result.error.message, result.error.details);
}

/** Compile-time exhaustiveness check for `switch` over a union. */
export function assertNever(value: never, what = 'value'): never {
  throw new CodedError('UNREACHABLE', `Unhandled ${what}: ${JSON.stringify(value)}`);
}
