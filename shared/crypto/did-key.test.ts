import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base58 } from '@scure/base';
import { readVectorJson } from '../test-support/vectors';
import { CodedError } from '../errors';
import { decodeBase64url } from './base64url';
import { fromHex } from './bytes';
import { keyPairFromSeed } from './ed25519';
import { decodeDidKey, encodeDidKey, isDidKey } from './did-key';

type Ed25519Vectors = Record<
  string,
  { seed: string; verificationKeyPair: { publicKeyBase58?: string; publicKeyJwk?: { x: string } } }
>;

// The vector file gives the public key either as base58 or as a JWK (base64url `x`).
const publishedKey = (pair: Ed25519Vectors[string]['verificationKeyPair']): Uint8Array => {
  if (pair.publicKeyBase58) return base58.decode(pair.publicKeyBase58);
  if (pair.publicKeyJwk) return decodeBase64url(pair.publicKeyJwk.x);
  throw new Error('vector has no public key');
};

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CodedError) return error.code;
    throw error;
  }
  throw new Error('expected a coded error');
};

describe('did:key (Ed25519)', () => {
  const vectors = Object.entries(readVectorJson<Ed25519Vectors>('did-key/ed25519-x25519.json'));

  it('has the five published seeds', () => expect(vectors).toHaveLength(5));

  it.each(vectors)('%s: seed → key → did, and did → key', (did, v) => {
    const { publicKey } = keyPairFromSeed(fromHex(v.seed));
    expect(publicKey).toEqual(publishedKey(v.verificationKeyPair));
    expect(encodeDidKey(publicKey)).toBe(did);
    expect(decodeDidKey(did)).toEqual(publicKey);
  });

  const secp = Object.keys(readVectorJson<Record<string, unknown>>('did-key/secp256k1-must-reject.json'));

  it.each(secp)('refuses the secp256k1 identifier %s', (did) => {
    expect(codeOf(() => decodeDidKey(did))).toBe('DID_UNSUPPORTED_KEY_TYPE');
    expect(isDidKey(did)).toBe(false);
  });

  it('round-trips any 32-byte key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
        expect(decodeDidKey(encodeDidKey(key))).toEqual(key);
      }),
      { seed: 25519, numRuns: 200 },
    );
  });

  it.each([
    ['not a did', 'did:web:example.com', 'DID_INVALID'],
    ['another multibase', 'did:key:m7QFAk', 'DID_UNSUPPORTED_ENCODING'],
    ['bad base58 alphabet', 'did:key:z0OIl', 'DID_INVALID'],
    [
      'too short key',
      `did:key:z${base58.encode(Uint8Array.of(0xed, 0x01, ...new Uint8Array(31)))}`,
      'DID_INVALID_KEY_LENGTH',
    ],
    [
      'too long key',
      `did:key:z${base58.encode(Uint8Array.of(0xed, 0x01, ...new Uint8Array(33)))}`,
      'DID_INVALID_KEY_LENGTH',
    ],
    ['empty payload', 'did:key:z', 'DID_UNSUPPORTED_KEY_TYPE'],
  ])('refuses %s', (_label, did, code) => {
    expect(codeOf(() => decodeDidKey(did))).toBe(code);
  });

  it('checks types and lengths at the boundary', () => {
    expect(() => decodeDidKey(42 as unknown as string)).toThrow(TypeError);
    expect(() => encodeDidKey(new Uint8Array(31))).toThrow(RangeError);
    expect(isDidKey(7)).toBe(false);
  });
});
