// Ed25519 with @noble/ed25519 under strict RFC 8032 rules (zip215: false): non-canonical
// point encodings and S >= L are refused, so every verifier in the system (this one, node:crypto
// on the server, WebCrypto in the browser) gives the same verdict on the same bytes.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { assertBytes } from './bytes';

ed.hashes.sha512 = sha512;

export const SECRET_KEY_LENGTH = 32;
export const PUBLIC_KEY_LENGTH = 32;
export const SIGNATURE_LENGTH = 64;

export interface KeyPair {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

export function generateKeyPair(): KeyPair {
  const secretKey = ed.utils.randomSecretKey();
  return { secretKey, publicKey: ed.getPublicKey(secretKey) };
}

/** RFC 8032 §5.1.5: the secret key is the 32-byte seed. */
export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  assertBytes(seed, 'seed', SECRET_KEY_LENGTH);
  return { secretKey: seed, publicKey: ed.getPublicKey(seed) };
}

export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  assertBytes(secretKey, 'secretKey', SECRET_KEY_LENGTH);
  return ed.getPublicKey(secretKey);
}

export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  assertBytes(message, 'message');
  assertBytes(secretKey, 'secretKey', SECRET_KEY_LENGTH);
  return ed.sign(message, secretKey);
}

/**
 * Strict RFC 8032 §5.1.7 verification. Returns false (never throws) for any signature or
 * key that is malformed, of the wrong length, non-canonical or simply wrong.
 */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  assertBytes(message, 'message');
  if (!(signature instanceof Uint8Array) || signature.length !== SIGNATURE_LENGTH) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== PUBLIC_KEY_LENGTH) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}
