import { describe, expect, it } from 'vitest';
import { readVectorText } from '../test-support/vectors';
import { decodeBase64url, encodeBase64url } from './base64url';
import { utf8 } from './bytes';
import { encodeDidKey } from './did-key';
import { generateKeyPair, verify } from './ed25519';
import { canonicalize } from './jcs';
import { signDocument, signingBytes, verifyDocument } from './signed-document';

describe('detached JSON signatures', () => {
  const keys = generateKeyPair();
  const did = encodeDidKey(keys.publicKey);
  const doc = { b: [1, 'two'], a: { z: true, y: null }, n: 1.5e-7 };

  it('signs the canonical form without the signature field', () => {
    const signed = signDocument(doc, 'sig', keys.secretKey);
    expect(new TextDecoder().decode(signingBytes(signed, 'sig'))).toBe(canonicalize(doc));
    expect(verifyDocument(signed, 'sig', did)).toEqual({ ok: true });
  });

  it('is independent of member order', () => {
    const signed = signDocument(doc, 'sig', keys.secretKey);
    const reordered = { sig: signed.sig, n: doc.n, a: { y: null, z: true }, b: doc.b };
    expect(verifyDocument(reordered, 'sig', did)).toEqual({ ok: true });
  });

  it.each([
    ['a changed value', (s: Record<string, unknown>) => ({ ...s, n: 2 })],
    ['an added member', (s: Record<string, unknown>) => ({ ...s, extra: 1 })],
  ])('refuses %s', (_label, mutate) => {
    const signed = signDocument(doc, 'sig', keys.secretKey);
    expect(verifyDocument(mutate(signed), 'sig', did)).toMatchObject({ ok: false, code: 'SIGNATURE_INVALID' });
  });

  it('reports missing, malformed and foreign signatures with distinct codes', () => {
    const signed = signDocument(doc, 'sig', keys.secretKey);
    expect(verifyDocument(doc, 'sig', did)).toMatchObject({ code: 'SIGNATURE_MISSING' });
    expect(verifyDocument({ ...signed, sig: 'not base64url!' }, 'sig', did)).toMatchObject({
      code: 'SIGNATURE_MALFORMED',
    });
    expect(verifyDocument(signed, 'sig', 'did:web:x')).toMatchObject({ code: 'SIGNER_INVALID' });
    const other = encodeDidKey(generateKeyPair().publicKey);
    expect(verifyDocument(signed, 'sig', other)).toMatchObject({ code: 'SIGNATURE_INVALID' });
    expect(verifyDocument({ ...signed, bad: Number.NaN }, 'sig', did)).toMatchObject({ code: 'NOT_CANONICALIZABLE' });
    expect(() => signingBytes([] as unknown as Record<string, unknown>, 'sig')).toThrow(/JSON object/);
  });

  it('cross-checks the primitives against another implementation (agora/request-basic)', () => {
    // The vector uses an older layout; only JCS + Ed25519 + base64url carry over (vectors/README.md).
    const input = JSON.parse(readVectorText('agora/request-basic.input.json')) as { sender: Record<string, unknown> };
    const canonical = canonicalize({ ...input, sender: { ...input.sender, signature: '' } });
    // The file ends with a newline that is not part of the canonical form.
    expect(canonical).toBe(readVectorText('agora/request-basic.canonical.json').replace(/\n$/, ''));
    const publicKey = decodeBase64url(readVectorText('agora/request-basic.publicKey.txt').trim());
    const signature = decodeBase64url(readVectorText('agora/request-basic.signature.txt').trim());
    expect(verify(signature, utf8(canonical), publicKey)).toBe(true);
    expect(encodeBase64url(signature)).toBe(readVectorText('agora/request-basic.signature.txt').trim());
    const flipped = utf8(canonical);
    flipped[10] = (flipped[10] as number) ^ 1;
    expect(verify(signature, flipped, publicKey)).toBe(false);
  });
});
