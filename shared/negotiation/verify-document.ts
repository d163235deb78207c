// The boundary every event crosses before the state machine looks at it: the schema, then the
// signature against the signer's did:key. The transition functions call both, so a server
// cannot apply an unverified document by forgetting a step.
import type { z } from 'zod';
import { verifyDocument, type DidSignatureCheck } from '../crypto/signed-document';
import { fail, ok, type Result } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import type { PartyDid } from './primitives';

export function parseDocument<S extends z.ZodType>(schema: S, input: unknown, what: string): Result<z.infer<S>> {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? ok(parsed.data)
    : fail(Code.INVALID_DOCUMENT, `Not a valid ${what} document.`, { issues: parsed.error.issues });
}

export function verifySignature(
  document: Readonly<Record<string, unknown>>,
  signer: PartyDid,
  what: string,
  check?: DidSignatureCheck,
): Result<true> {
  const verdict =
    check === undefined
      ? verifyDocument(document, 'signature', signer)
      : verifyDocument(document, 'signature', signer, check);
  return verdict.ok
    ? ok(true)
    : fail(Code.SIGNATURE_INVALID, `The ${what} signature does not verify against ${signer}.`, {
        reason: verdict.code,
      });
}

/** Refuses a signed `at` further than the allowed skew from the Tool's clock (stale replays, future dating). */
export function checkClock(at: string, now: number, skewMs: number): Result<true> {
  const drift = Date.parse(at) - now;
  return Math.abs(drift) <= skewMs
    ? ok(true)
    : fail(Code.CLOCK_SKEW, `The signed time ${at} is ${Math.round(drift / 1000)} s from the Tool's clock.`, {
        drift_ms: drift,
        allowed_ms: skewMs,
      });
}
