// The operator's private key as a non-extractable WebCrypto CryptoKey: page script (ours, or
// one injected into the origin) can ask it to sign while it runs, but can never read its bytes
// to take them away (WebCrypto §"extractable"; structured clone into IndexedDB keeps the flag).
import { CodedError } from '@shared/errors';
import { SECRET_KEY_LENGTH } from '@shared/crypto/ed25519';
import { KEY_STORAGE_UNSUPPORTED } from './detect-ed25519';

const ED25519 = { name: 'Ed25519' } as const;

// RFC 8410 §7: PKCS#8 OneAsymmetricKey wrapping a 32-byte Ed25519 seed. WebCrypto imports an
// Ed25519 private key only as pkcs8 or jwk, never as raw bytes.
const PKCS8_ED25519_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

export const unsupported = () =>
  new CodedError(
    KEY_STORAGE_UNSUPPORTED,
    'This browser cannot keep your key safely: it has no Ed25519 in WebCrypto. Use a current Chrome, Edge, Firefox or Safari.',
  );

/**
 * Imports a 32-byte Ed25519 seed as a private key that can sign and never be exported. The
 * PKCS#8 copy is zeroed once imported; the caller zeroes its own seed.
 */
export async function importSigningKey(seed: Uint8Array, subtle: SubtleCrypto = crypto.subtle): Promise<CryptoKey> {
  if (!(seed instanceof Uint8Array) || seed.length !== SECRET_KEY_LENGTH)
    throw new RangeError(`secretKey must be ${SECRET_KEY_LENGTH} bytes`);
  const pkcs8 = new Uint8Array(PKCS8_ED25519_PREFIX.length + SECRET_KEY_LENGTH);
  pkcs8.set(PKCS8_ED25519_PREFIX);
  pkcs8.set(seed, PKCS8_ED25519_PREFIX.length);
  try {
    return await subtle.importKey('pkcs8', pkcs8, ED25519, false, ['sign']);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotSupportedError') throw unsupported();
    throw error;
  } finally {
    pkcs8.fill(0);
  }
}

/** Ed25519 is deterministic (RFC 8032 §5.1.6): the same key and bytes give noble's signature. */
export async function signWithKey(
  key: CryptoKey,
  message: Uint8Array,
  subtle: SubtleCrypto = crypto.subtle,
): Promise<Uint8Array> {
  return new Uint8Array(await subtle.sign(ED25519, key, new Uint8Array(message)));
}
