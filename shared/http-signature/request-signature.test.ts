// RFC 9421 subset: the RFC's own Ed25519 example (§B.2.6) as a vector for the signature base and
// the signature bytes, then what the verifier refuses: stale, future, expired, tampered, uncovered.
import { describe, expect, it } from 'vitest';
import { decodeBase64url } from '../crypto/base64url';
import { decodeDidKey, encodeDidKey } from '../crypto/did-key';
import { keyPairFromSeed, sign, verify } from '../crypto/ed25519';
import { signRequest, verifyRequest, type VerifyOptions } from './request-signature';
import { signatureBase, type SignableRequest } from './signature-base';

const request = (url: string, headers: Record<string, string> = {}, method = 'GET'): SignableRequest => ({
  method,
  url,
  header: (name) => headers[name],
});

describe('RFC 9421 §B.2.6 (Ed25519)', () => {
  // §B.1.4 test-key-ed25519, as the JWK's d and x.
  const seed = decodeBase64url('n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU');
  const publicKey = decodeBase64url('JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs');
  const b2 = request(
    'https://example.com/foo?param=Value&Pet=dog',
    {
      date: 'Tue, 20 Apr 2021 02:07:55 GMT',
      'content-type': 'application/json',
      'content-length': '18',
    },
    'POST',
  );
  const components = ['date', '@method', '@path', '@authority', 'content-type', 'content-length'];
  const paramsValue =
    '("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"';
  const expectedBase = [
    '"date": Tue, 20 Apr 2021 02:07:55 GMT',
    '"@method": POST',
    '"@path": /foo',
    '"@authority": example.com',
    '"content-type": application/json',
    '"content-length": 18',
    `"@signature-params": ${paramsValue}`,
  ].join('\n');
  const expectedSignature = 'wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==';

  it('builds the signature base byte for byte', () => {
    expect(signatureBase(b2, components, paramsValue)).toBe(expectedBase);
  });

  it('the published signature verifies over that base, and the RFC key reproduces it', () => {
    expect(keyPairFromSeed(seed).publicKey).toEqual(publicKey);
    const bytes = Uint8Array.from(atob(expectedSignature), (ch) => ch.charCodeAt(0));
    const built = new TextEncoder().encode(signatureBase(b2, components, paramsValue));
    expect(verify(bytes, built, publicKey)).toBe(true);
    expect(sign(built, seed)).toEqual(bytes);
    const headers = signRequest(b2, {
      keyid: 'test-key-ed25519',
      secretKey: seed,
      created: 1618884473,
      nonce: 'unused',
      components,
    });
    // Our signer adds nonce and alg, so its bytes differ; the signature is still over the base it declares.
    expect(headers['signature-input']).toMatch(
      /^sig=\("date" "@method" "@path" "@authority" "content-type" "content-length"\);created=1618884473;nonce="unused";alg="ed25519";keyid="test-key-ed25519"$/,
    );
  });
});

describe('verifyRequest', () => {
  const key = keyPairFromSeed(new Uint8Array(32).fill(7));
  const did = encodeDidKey(key.publicKey);
  const url = 'https://tool.example/oap/negotiation/neg_1?x=1';
  const check: VerifyOptions['check'] = (signer, message, signature) =>
    verify(signature, message, decodeDidKey(signer));
  const options: VerifyOptions = { now: 1_000_000, maxAgeSeconds: 60, skewSeconds: 10, check };
  const signed = (over: Partial<Parameters<typeof signRequest>[1]> = {}, target = url) => {
    const headers = signRequest(request(target), {
      keyid: did,
      secretKey: key.secretKey,
      created: 1_000_000,
      nonce: 'nonce-0001',
      ...over,
    });
    return headers;
  };
  const verifyWith = (headers: Record<string, string>, target = url, method = 'GET', opts = options) =>
    verifyRequest(request(target, headers, method), opts);

  it('accepts a fresh party signature and names its DID and nonce', () => {
    const verdict = verifyWith(signed());
    expect(verdict).toMatchObject({ ok: true, value: { keyid: did, nonce: 'nonce-0001', staleAt: 1_000_060 } });
  });

  it.each([
    ['no headers', {}, url, 'GET', 'HTTP_SIGNATURE_MISSING'],
    ['another path', signed(), 'https://tool.example/oap/negotiation/neg_2?x=1', 'GET', 'HTTP_SIGNATURE_INVALID'],
    ['another query', signed(), 'https://tool.example/oap/negotiation/neg_1?x=2', 'GET', 'HTTP_SIGNATURE_INVALID'],
    ['another host', signed(), 'https://evil.example/oap/negotiation/neg_1?x=1', 'GET', 'HTTP_SIGNATURE_INVALID'],
    ['another method', signed(), url, 'POST', 'HTTP_SIGNATURE_INVALID'],
    ['too old', signed({ created: 1_000_000 - 61 }), url, 'GET', 'HTTP_SIGNATURE_EXPIRED'],
    ['from the future', signed({ created: 1_000_000 + 11 }), url, 'GET', 'HTTP_SIGNATURE_EXPIRED'],
    ['expired', signed({ expires: 999_999 }), url, 'GET', 'HTTP_SIGNATURE_EXPIRED'],
    ['path not covered', signed({ components: ['@method', '@authority'] }), url, 'GET', 'HTTP_SIGNATURE_INVALID'],
    ['no nonce', signed({ nonce: '' }), url, 'GET', 'HTTP_SIGNATURE_INVALID'],
    ['keyid not a did:key', signed({ keyid: 'test-key' }), url, 'GET', 'HTTP_SIGNATURE_INVALID'],
  ] as const)('refuses %s', (_name, headers, target, method, code) => {
    const verdict = verifyWith(headers as Record<string, string>, target, method);
    expect(verdict.ok ? 'accepted' : verdict.error.code).toBe(code);
  });

  it('refuses a tampered parameter and a signature by another key under this keyid', () => {
    const good = signed();
    const tampered = {
      ...good,
      'signature-input': good['signature-input'].replace('created=1000000', 'created=1000001'),
    };
    expect(verifyWith(tampered).ok).toBe(false);
    const other = keyPairFromSeed(new Uint8Array(32).fill(9));
    const forged = signRequest(request(url), {
      keyid: did,
      secretKey: other.secretKey,
      created: 1_000_000,
      nonce: 'nonce-0001',
    });
    expect(verifyWith(forged)).toMatchObject({ ok: false, error: { code: 'HTTP_SIGNATURE_INVALID' } });
    expect(verifyWith({ 'signature-input': 'not a dictionary (', signature: good.signature })).toMatchObject({
      ok: false,
      error: { code: 'HTTP_SIGNATURE_INVALID' },
    });
  });
});
