// How a did:key is shown to people: a short form that fits a button, and a fingerprint of the
// public key to compare by eye or over the phone.
import { decodeDidKey } from '@shared/crypto/did-key';
import { sha256Hex } from '@shared/crypto/sha256';

export { shortDid } from './did-short';

/** The first 64 bits of SHA-256 over the raw public key, as four groups of hex digits. */
export function keyFingerprint(did: string): string {
  const hex = sha256Hex(decodeDidKey(did)).slice(0, 16);
  return hex.match(/.{4}/g)?.join(' ') ?? hex;
}

/** A file name that says whose key it is and when it was saved (UTC date). */
export function backupFileName(did: string, at: Date): string {
  return `switchboard-key-${did.slice(-8)}-${at.toISOString().slice(0, 10)}.json`;
}
