import { describe, expect, it } from 'vitest';
import { loadWycheproofCases } from '@shared/crypto/test-support/wycheproof';
import { encodeDidKey } from '@shared/crypto/did-key';
import { generateKeyPair, sign, verify as nobleVerify } from '@shared/crypto/ed25519';
import { DidVerifier, verifyWithNode } from './node-verifier';

describe('node:crypto Ed25519 verifier', () => {
  const cases = loadWycheproofCases();

  it('gives the Wycheproof verdict on all 151 cases, like noble in strict mode', () => {
    expect(cases).toHaveLength(151);
    const disagreements = cases.filter(
      (c) =>
        verifyWithNode(c.signature, c.message, c.publicKey) !== c.expected ||
        nobleVerify(c.signature, c.message, c.publicKey) !== c.expected,
    );
    expect(disagreements.map((c) => c.tcId)).toEqual([]);
  });

  it('verifies by did:key with a cached key, and refuses unusable signers', () => {
    const keys = generateKeyPair();
    const did = encodeDidKey(keys.publicKey);
    const message = Uint8Array.of(1, 2, 3);
    const signature = sign(message, keys.secretKey);
    const verifier = new DidVerifier(2);
    expect(verifier.verify(did, message, signature)).toBe(true);
    expect(verifier.verify(did, message, signature)).toBe(true); // served from the cache
    expect(verifier.verify(did, Uint8Array.of(1, 2, 4), signature)).toBe(false);
    expect(verifier.verify('did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme', message, signature)).toBe(
      false,
    );
    expect(verifier.verify('did:web:example.com', message, signature)).toBe(false); // evicts the oldest entry
    expect(verifier.verify(did, message, signature.slice(1))).toBe(false);
  });
});
