import { describe, expect, it } from 'vitest';
import { fromHex } from '@shared/crypto/bytes';
import { sha256Hex } from '@shared/crypto/sha256';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { backupFileName, keyFingerprint, shortDid } from './did-display';

const { publicKey } = keyPairFromSeed(fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'));
const did = encodeDidKey(publicKey);

describe('did display', () => {
  it('shortens a did:key to its prefix and last six characters', () => {
    expect(did).toBe('did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw');
    expect(shortDid(did)).toBe('did:key:z6Mk…7oMMsw');
    expect(shortDid('did:key:zShort')).toBe('did:key:zShort');
  });

  it('fingerprints the raw public key: the first 64 bits of its SHA-256, grouped', () => {
    const expected = sha256Hex(publicKey)
      .slice(0, 16)
      .replace(/(.{4})(?!$)/g, '$1 ');
    expect(keyFingerprint(did)).toBe(expected);
    expect(keyFingerprint(did)).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  });

  it('refuses to fingerprint something that is not an Ed25519 did:key', () => {
    expect(() => keyFingerprint('did:web:example.com')).toThrow(/did:key/);
  });

  it('names a backup file after the key and the UTC date', () => {
    expect(backupFileName(did, new Date('2025-03-04T23:30:00Z'))).toBe('switchboard-key-Zq7oMMsw-2025-03-04.json');
  });
});
