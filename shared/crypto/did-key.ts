// did:key for Ed25519 (Agora v1.0 Appendix A; w3c-ccg did-method-key):
// "did:key:z" + base58btc(0xed 0x01 ‖ 32-byte public key). Anything else is refused.
import { base58 } from '@scure/base';
import { CodedError } from '../errors';
import { assertBytes, concatBytes } from './bytes';
import { PUBLIC_KEY_LENGTH } from './ed25519';

const PREFIX = 'did:key:';
const ED25519_MULTICODEC = Uint8Array.of(0xed, 0x01);

export type DidKey = `did:key:z${string}`;

export function encodeDidKey(publicKey: Uint8Array): DidKey {
  assertBytes(publicKey, 'publicKey', PUBLIC_KEY_LENGTH);
  return `did:key:z${base58.encode(concatBytes(ED25519_MULTICODEC, publicKey))}`;
}

/** Returns the 32-byte Ed25519 public key, or throws a coded error naming what is wrong. */
export function decodeDidKey(did: string): Uint8Array {
  if (typeof did !== 'string') throw new TypeError('did must be a string');
  if (!did.startsWith(PREFIX)) throw new CodedError('DID_INVALID', 'Not a did:key identifier.');
  const multibase = did.slice(PREFIX.length);
  // Appendix A rule 1: base58-btc only, multibase prefix "z".
  if (!multibase.startsWith('z')) {
    throw new CodedError('DID_UNSUPPORTED_ENCODING', 'did:key must use base58-btc (multibase prefix "z").');
  }
  let decoded: Uint8Array;
  try {
    decoded = base58.decode(multibase.slice(1));
  } catch {
    throw new CodedError('DID_INVALID', 'did:key is not valid base58-btc.');
  }
  // Rule 2: multicodec 0xed01 (Ed25519 public key) only.
  if (decoded.length < 2 || decoded[0] !== 0xed || decoded[1] !== 0x01) {
    throw new CodedError(
      'DID_UNSUPPORTED_KEY_TYPE',
      'Only Ed25519 did:key identifiers (multicodec 0xed01) are accepted.',
    );
  }
  // Rule 3: exactly 32 key bytes.
  const key = decoded.slice(2);
  if (key.length !== PUBLIC_KEY_LENGTH) {
    throw new CodedError('DID_INVALID_KEY_LENGTH', `Ed25519 did:key must hold 32 key bytes, got ${key.length}.`);
  }
  return key;
}

export function isDidKey(value: unknown): value is DidKey {
  if (typeof value !== 'string') return false;
  try {
    decodeDidKey(value);
    return true;
  } catch {
    return false;
  }
}
