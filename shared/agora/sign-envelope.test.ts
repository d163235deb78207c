import { describe, expect, it } from 'vitest';
import { CodedError } from '../errors';
import { decodeBase64url } from '../crypto/base64url';
import { verify } from '../crypto/ed25519';
import { canonicalize } from '../crypto/jcs';
import { readVectorJson, readVectorText } from '../test-support/vectors';
import type { Envelope, UnsignedEnvelope } from './envelope';
import { envelopeDigest, signEnvelope, verifyEnvelope } from './sign-envelope';
import { agentA, client, draft, signed } from './test-support/fixtures';

const reasonOf = (result: ReturnType<typeof verifyEnvelope>) => (result.ok ? 'ok' : result.error.details.reason);

describe('signEnvelope / verifyEnvelope', () => {
  it('signs the JCS form of the envelope without sig, as the spec says', () => {
    const unsigned = draft('REQUEST', { from: client });
    const envelope = signEnvelope(unsigned as UnsignedEnvelope, client.secretKey);
    const { sig, ...rest } = envelope;
    expect(rest).toEqual(unsigned);
    const bytes = new TextEncoder().encode(canonicalize(unsigned));
    expect(verify(decodeBase64url(sig), bytes, client.publicKey)).toBe(true);
    expect(verifyEnvelope(envelope)).toEqual({ ok: true, value: envelope });
  });

  it('is deterministic (Ed25519) and ignores an existing sig when re-signing', () => {
    const unsigned = draft('OFFER', { from: agentA, id: 'msg_fixed' });
    const once = signEnvelope(unsigned as UnsignedEnvelope, agentA.secretKey);
    const twice = signEnvelope(once as unknown as UnsignedEnvelope, agentA.secretKey);
    expect(twice.sig).toBe(once.sig);
  });

  it('refuses to sign with a key that is not sender.id, or an invalid envelope', () => {
    const unsigned = draft('REQUEST', { from: client }) as UnsignedEnvelope;
    expect(() => signEnvelope(unsigned, agentA.secretKey)).toThrow(CodedError);
    try {
      signEnvelope(unsigned, agentA.secretKey);
    } catch (error) {
      expect((error as CodedError).details?.reason).toBe('signer_mismatch');
      expect((error as CodedError).code).toBe('FORBIDDEN');
    }
    const broken = { ...unsigned, thread: {} } as unknown as UnsignedEnvelope;
    expect(() => signEnvelope(broken, client.secretKey)).toThrow(/Not a valid unsigned Agora envelope/);
  });

  it('detects any change to a signed field, unknown fields included', () => {
    const envelope = signEnvelope(
      { ...draft('REQUEST', { from: client }), x_extra: { n: 1 } } as UnsignedEnvelope,
      client.secretKey,
    );
    expect(verifyEnvelope(envelope).ok).toBe(true);
    expect(reasonOf(verifyEnvelope({ ...envelope, x_extra: { n: 2 } } as Envelope))).toBe('signature_invalid');
    expect(reasonOf(verifyEnvelope({ ...envelope, ts: '2026-02-02T15:30:01Z' }))).toBe('signature_invalid');
    // Claiming another sender: verified against the claimed key, so it fails.
    expect(reasonOf(verifyEnvelope({ ...envelope, sender: { id: agentA.did } }))).toBe('signature_invalid');
  });

  it('codes malformed signatures, bad signers and non-JSON content', () => {
    const envelope = signed('REQUEST', { from: client });
    expect(reasonOf(verifyEnvelope({ ...envelope, sig: 'not base64url!' }))).toBe('signature_malformed');
    expect(reasonOf(verifyEnvelope({ ...envelope, sig: '' }))).toBe('signature_malformed');
    expect(reasonOf(verifyEnvelope({ ...envelope, sender: { id: 'did:key:zNotAKey' } } as unknown as Envelope))).toBe(
      'signer_invalid',
    );
    const notJson = { ...envelope, payload: { ...envelope.payload, at: new Date(0) } } as unknown as Envelope;
    expect(reasonOf(verifyEnvelope(notJson))).toBe('not_json');
  });

  it('digests the whole signed envelope, independent of key order', () => {
    const envelope = signed('REQUEST', { from: client });
    const reordered = Object.fromEntries(Object.entries(envelope).reverse()) as Envelope;
    expect(envelopeDigest(reordered)).toBe(envelopeDigest(envelope));
    expect(envelopeDigest(envelope)).toMatch(/^[0-9a-f]{64}$/);
    // Two other characters at the end (a signature may already end in "AA": 1 in 4,096).
    const tail = envelope.sig.endsWith('AA') ? 'BB' : 'AA';
    expect(envelopeDigest({ ...envelope, sig: `${envelope.sig.slice(0, -2)}${tail}` })).not.toBe(
      envelopeDigest(envelope),
    );
  });
});

describe('cross-check against the published agora vector (primitives only: older layout)', () => {
  it('JCS of the input with sender.signature "" is the published canonical form, and its signature verifies', () => {
    const input = readVectorJson<{ sender: Record<string, unknown> } & Record<string, unknown>>(
      'agora/request-basic.input.json',
    );
    const canonical = readVectorText('agora/request-basic.canonical.json').trim();
    const stripped = { ...input, sender: { ...input.sender, signature: '' } };
    expect(canonicalize(stripped)).toBe(canonical);
    const publicKey = decodeBase64url(readVectorText('agora/request-basic.publicKey.txt').trim());
    const signature = decodeBase64url(readVectorText('agora/request-basic.signature.txt').trim());
    expect(verify(signature, new TextEncoder().encode(canonical), publicKey)).toBe(true);
  });
});
