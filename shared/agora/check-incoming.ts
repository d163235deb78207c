// The one validation pipeline every received envelope goes through, in the relay
// (decisions-agora.md: "the relay verifies signatures") and in any receiving client. Pure: the
// clock and the replay memory are passed in, and nothing is remembered here; the caller
// remembers the digest once it has stored the envelope (ReplayMemory.remember).
import { ok } from '../errors';
import type { Result } from '../errors';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { AGORA_VERSION, Envelope } from './envelope';
import { timestampMs } from './fields';
import { agoraFail } from './reject-reasons';
import type { AgoraError } from './reject-reasons';
import type { ReplayView } from './replay-memory';
import { sha256Hex } from '../crypto/sha256';
import { verifyEnvelopeText } from './sign-envelope';

/** "Reject messages with `ts` outside ±5 minutes of current time" (Replay Attack Prevention 1). */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/** `meta.ttl` default, "300 seconds (5 min)" (Timeout Rules). */
export const DEFAULT_TTL_SECONDS = 300;

export interface IncomingContext {
  /** Receiver's clock, epoch milliseconds. */
  readonly now: number;
  readonly seen: ReplayView;
  /**
   * The Ed25519 check by signer DID; noble (strict RFC 8032) by default. A relay passes a faster
   * one with the same verdicts (node:crypto in server/crypto/node-verifier.ts).
   */
  readonly verify?: DidSignatureCheck;
  /**
   * The envelope's digest (`envelopeDigest` (sign-envelope.ts)) from its canonical text, which the signature
   * check computed already; a relay may pass one on its own SHA-256 with the same output.
   */
  readonly digest?: (canonical: string) => string;
}

export interface AcceptedEnvelope {
  readonly envelope: Envelope;
  /** See `envelopeDigest` (sign-envelope.ts); pass it to ReplayMemory.remember. */
  readonly digest: string;
  /** True when this exact signed envelope was already accepted: answer ok, store nothing. */
  readonly duplicate: boolean;
  /** Epoch ms after which the envelope is expired (ts + ttl): when a relay may drop it. */
  readonly expiresAt: number;
}

/**
 * Checks, in order: JSON object → exact `version` → schema → signature → ±5 min window →
 * replay memory → `meta.ttl`. The first failure is returned with its reason.
 */
export function checkIncoming(raw: unknown, ctx: IncomingContext): Result<AcceptedEnvelope, AgoraError> {
  const { now, seen, verify, digest: digestOf = sha256Hex } = ctx;
  if (typeof now !== 'number' || !Number.isFinite(now))
    throw new TypeError('ctx.now must be a finite number of milliseconds');

  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return agoraFail('schema_invalid', 'An Agora envelope must be a JSON object.', { issues: [] });
  }
  // Version before the full schema: a 2.0 envelope may differ in shape, and its sender needs to
  // hear "version" (which calls for negotiation), not a list of schema issues.
  const version: unknown = (raw as Record<string, unknown>).version;
  if (typeof version === 'string' && version !== AGORA_VERSION) {
    return agoraFail('version_mismatch', `Agora version must be exactly "${AGORA_VERSION}".`, {
      expected: AGORA_VERSION,
      received: version,
    });
  }
  const parsed = Envelope.safeParse(raw);
  if (!parsed.success) {
    return agoraFail('schema_invalid', 'Not a valid Agora envelope.', {
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    });
  }
  const verified = verifyEnvelopeText(parsed.data, verify);
  if (!verified.ok) return verified;
  const { envelope, canonical } = verified.value;

  const sentAt = timestampMs(envelope.ts);
  // The spec's validateTimestamp: accepted iff |now − ts| < 5 min, strictly.
  if (now - sentAt >= MAX_CLOCK_SKEW_MS) {
    return agoraFail('timestamp_too_old', 'ts is more than 5 minutes in the past.', { ts: envelope.ts, now });
  }
  if (sentAt - now >= MAX_CLOCK_SKEW_MS) {
    return agoraFail('timestamp_in_future', 'ts is more than 5 minutes in the future.', { ts: envelope.ts, now });
  }

  const digest = digestOf(canonical);
  const known = seen.lookup(envelope.id, now);
  if (known !== undefined && known !== digest) {
    return agoraFail('id_conflict', `Message id ${envelope.id} was already used for a different envelope.`, {
      id: envelope.id,
    });
  }

  const ttlSeconds = envelope.meta?.ttl ?? DEFAULT_TTL_SECONDS;
  const expiresAt = sentAt + ttlSeconds * 1000;
  if (expiresAt < now) {
    return agoraFail('ttl_expired', 'The envelope outlived meta.ttl.', { ts: envelope.ts, ttl: ttlSeconds, now });
  }

  return ok({ envelope, digest, duplicate: known !== undefined, expiresAt });
}
