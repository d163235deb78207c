import { describe, expect, it } from 'vitest';
import { readVectorJson } from '../test-support/vectors';
import { fromHex, toHex } from './bytes';
import { generateKeyPair, keyPairFromSeed, publicKeyOf, sign, verify } from './ed25519';
import { loadWycheproofCases } from './test-support/wycheproof';

interface Rfc8032Case {
  secretKey: string;
  publicKey: string;
  message: string;
  signature: string;
}

describe('Ed25519 (strict RFC 8032)', () => {
  const rfc = readVectorJson<Rfc8032Case[]>('ed25519/rfc8032-section-7.1.json');

  it('has RFC 8032 §7.1 TEST 1–3', () => expect(rfc).toHaveLength(3));

  it.each(rfc.map((c, i) => [i + 1, c] as const))('TEST %i: derives the key, signs and verifies', (_n, c) => {
    const keys = keyPairFromSeed(fromHex(c.secretKey));
    expect(toHex(keys.publicKey)).toBe(c.publicKey);
    expect(toHex(sign(fromHex(c.message), keys.secretKey))).toBe(c.signature);
    expect(verify(fromHex(c.signature), fromHex(c.message), keys.publicKey)).toBe(true);
  });

  const cases = loadWycheproofCases();

  it('reads every Wycheproof case (88 valid, 63 invalid)', () => {
    expect(cases.filter((c) => c.expected).length).toBe(88);
    expect(cases.filter((c) => !c.expected).length).toBe(63);
  });

  it.each(cases.map((c) => [c.tcId, c.comment || '(no comment)', c] as const))(
    'Wycheproof tcId %i %s gives the expected verdict',
    (_id, _comment, c) => {
      expect(verify(c.signature, c.message, c.publicKey)).toBe(c.expected);
    },
  );

  it('refuses wrong lengths without throwing, and wrong types with TypeError', () => {
    const { secretKey, publicKey } = generateKeyPair();
    const msg = Uint8Array.of(1, 2, 3);
    const sig = sign(msg, secretKey);
    expect(verify(sig.slice(0, 63), msg, publicKey)).toBe(false);
    expect(verify(sig, msg, publicKey.slice(1))).toBe(false);
    expect(() => sign(msg, secretKey.slice(1))).toThrow(RangeError);
    expect(() => sign('text' as unknown as Uint8Array, secretKey)).toThrow(TypeError);
    expect(() => publicKeyOf(new Uint8Array(31))).toThrow(RangeError);
  });

  it('fails on any single flipped bit of the signature', () => {
    const { secretKey, publicKey } = generateKeyPair();
    const msg = Uint8Array.of(9, 9, 9);
    const sig = sign(msg, secretKey);
    for (let bit = 0; bit < 512; bit += 7) {
      const bad = sig.slice();
      bad[bit >> 3] = (bad[bit >> 3] as number) ^ (1 << (bit & 7));
      expect(verify(bad, msg, publicKey)).toBe(false);
    }
  });
});
