// Agora v1.0 "Signing Process": remove `sig`, canonicalize with RFC 8785 (JCS), sign with
// Ed25519, carry the signature as base64url. The signer is always `sender.id`.
import { CodedError, assertNever, ok } from '../errors';
import type { Result } from '../errors';
import { canonicalBytes } from '../crypto/jcs';
import { encodeDidKey } from '../crypto/did-key';
import { publicKeyOf } from '../crypto/ed25519';
import { sha256Hex } from '../crypto/sha256';
import { signDocument, verifyDocumentText } from '../crypto/signed-document';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { UnsignedEnvelope } from './envelope';
import type { Envelope } from './envelope';
import { agoraError, agoraFail } from './reject-reasons';
import type { AgoraError } from './reject-reasons';

const SIG_FIELD = 'sig';

/**
 * The envelope as it will be signed, checked: a valid unsigned envelope whose `sender.id` is
 * `signerDid`. Throws a coded error otherwise, so a bad envelope never leaves its author. Split
 * from {@link signEnvelope} for signers that hold no key bytes (the browser's CryptoKey).
 */
export function checkEnvelopeToSign(unsigned: UnsignedEnvelope, signerDid: string): UnsignedEnvelope {
  const parsed = UnsignedEnvelope.safeParse(unsigned);
  if (!parsed.success) {
    const { code, message, details } = agoraError('schema_invalid', 'Not a valid unsigned Agora envelope.', {
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    });
    throw new CodedError(code, message, details);
  }
  if (signerDid !== parsed.data.sender.id) {
    const { code, message, details } = agoraError('signer_mismatch', 'The secret key does not belong to sender.id.', {
      signer: signerDid,
      senderId: parsed.data.sender.id,
    });
    throw new CodedError(code, message, details);
  }
  // What the schema returned: the same fields as the input, so the same bytes.
  return parsed.data;
}

/**
 * Signs an envelope with the sender's key. Throws a coded error when the envelope is not a
 * valid unsigned envelope or when the key is not the one `sender.id` names.
 */
export function signEnvelope(unsigned: UnsignedEnvelope, secretKey: Uint8Array): Envelope {
  const checked = checkEnvelopeToSign(unsigned, encodeDidKey(publicKeyOf(secretKey)));
  return signDocument(checked, SIG_FIELD, secretKey) as Envelope;
}

/**
 * Verifies `sig` against `sender.id`; returns the envelope, or a coded reason. Never throws.
 * `check` replaces the default noble verification (the server passes node:crypto).
 */
export function verifyEnvelope(envelope: Envelope, check?: DidSignatureCheck): Result<Envelope, AgoraError> {
  const verified = verifyEnvelopeText(envelope, check);
  return verified.ok ? ok(verified.value.envelope) : verified;
}

/** {@link verifyEnvelope}, also handing back the envelope's canonical (JCS) text, sig included. */
export function verifyEnvelopeText(
  envelope: Envelope,
  check?: DidSignatureCheck,
): Result<{ readonly envelope: Envelope; readonly canonical: string }, AgoraError> {
  const { verdict, canonical } = verifyDocumentText(envelope, SIG_FIELD, envelope.sender.id, check);
  if (verdict.ok) return ok({ envelope, canonical: canonical! });
  switch (verdict.code) {
    case 'SIGNATURE_MISSING':
    case 'SIGNATURE_MALFORMED':
      return agoraFail('signature_malformed', 'sig is not an unpadded base64url Ed25519 signature.');
    case 'SIGNER_INVALID':
      return agoraFail('signer_invalid', verdict.message);
    case 'NOT_CANONICALIZABLE':
      return agoraFail('not_json', verdict.message);
    case 'SIGNATURE_INVALID':
      return agoraFail('signature_invalid', 'sig does not verify against sender.id.');
    default:
      return assertNever(verdict.code, 'signature verdict');
  }
}

/**
 * SHA-256 (hex) of the whole signed envelope in JCS form. Two posts of the same signed
 * envelope have the same digest whatever their whitespace or key order; any change to a
 * field, or a different signature, changes it. The replay memory stores it per id.
 */
export const envelopeDigest = (envelope: Envelope): string => sha256Hex(canonicalBytes(envelope));
