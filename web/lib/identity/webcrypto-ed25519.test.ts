import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '@shared/crypto/bytes';
import { keyPairFromSeed, sign, verify } from '@shared/crypto/ed25519';
import { detectEd25519, KEY_STORAGE_UNSUPPORTED } from './detect-ed25519';
import { importSigningKey, signWithKey } from './webcrypto-ed25519';

// RFC 8032 §7.1 TEST 2: a one-byte message.
const SEED = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb';
const MESSAGE = fromHex('72');
const SIGNATURE =
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00';

describe('the operator key in WebCrypto', () => {
  it('signs exactly as noble does with the same key bytes (RFC 8032 TEST 2), and the signature verifies with shared/crypto', async () => {
    const keys = keyPairFromSeed(fromHex(SEED));
    const key = await importSigningKey(keys.secretKey);
    const signature = await signWithKey(key, MESSAGE);
    expect(toHex(signature)).toBe(SIGNATURE);
    expect(signature).toEqual(sign(MESSAGE, keys.secretKey));
    expect(verify(signature, MESSAGE, keys.publicKey)).toBe(true);
  });

  it('gives byte-equal signatures to noble for many keys and messages', async () => {
    for (let i = 0; i < 16; i++) {
      const keys = keyPairFromSeed(new Uint8Array(32).fill(i * 13 + 1));
      const message = new TextEncoder().encode(`{"n":${i},"text":"${'x'.repeat(i * 7)}"}`);
      expect(await signWithKey(await importSigningKey(keys.secretKey), message)).toEqual(sign(message, keys.secretKey));
    }
  });

  it('imports a key that cannot be exported and can only sign', async () => {
    const key = await importSigningKey(keyPairFromSeed(fromHex(SEED)).secretKey);
    expect(key.extractable).toBe(false);
    expect(key.type).toBe('private');
    expect(key.usages).toEqual(['sign']);
    await expect(crypto.subtle.exportKey('pkcs8', key)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('jwk', key)).rejects.toThrow();
  });

  it('refuses a seed of the wrong size', async () => {
    await expect(importSigningKey(new Uint8Array(31))).rejects.toThrow(RangeError);
  });

  it('says in a coded error that the browser cannot keep the key when it has no Ed25519', async () => {
    const subtle = {
      importKey: () => Promise.reject(new DOMException('Unrecognized name.', 'NotSupportedError')),
    } as unknown as SubtleCrypto;
    await expect(importSigningKey(new Uint8Array(32), subtle)).rejects.toMatchObject({
      code: KEY_STORAGE_UNSUPPORTED,
      message: /cannot keep your key safely/,
    });
  });
});

describe('detecting Ed25519 in WebCrypto', () => {
  it('says yes where it is (Node, current browsers)', async () => {
    expect(await detectEd25519()).toBe(true);
  });

  it('says no without crypto.subtle (an insecure context)', async () => {
    expect(await detectEd25519({})).toBe(false);
  });

  it('says no when the algorithm is unknown', async () => {
    const subtle = {
      generateKey: () => Promise.reject(new DOMException('Unrecognized name.', 'NotSupportedError')),
    } as unknown as SubtleCrypto;
    expect(await detectEd25519({ subtle: subtle })).toBe(false);
  });

  it('says no when signing fails or does not verify', async () => {
    const real = crypto.subtle;
    const failing = {
      generateKey: real.generateKey.bind(real),
      sign: () => Promise.reject(new DOMException('no', 'OperationError')),
      verify: real.verify.bind(real),
    } as unknown as SubtleCrypto;
    expect(await detectEd25519({ subtle: failing })).toBe(false);
    const lying = {
      generateKey: real.generateKey.bind(real),
      sign: async () => new Uint8Array(64).buffer,
      verify: real.verify.bind(real),
    } as unknown as SubtleCrypto;
    expect(await detectEd25519({ subtle: lying })).toBe(false);
  });

  it('says no when the key it made is extractable (a key store that would give the bytes away)', async () => {
    const real = crypto.subtle;
    const leaky = {
      generateKey: (algorithm: AlgorithmIdentifier, _extractable: boolean, usages: KeyUsage[]) =>
        real.generateKey(algorithm, true, usages),
      sign: real.sign.bind(real),
      verify: real.verify.bind(real),
    } as unknown as SubtleCrypto;
    expect(await detectEd25519({ subtle: leaky })).toBe(false);
  });
});
