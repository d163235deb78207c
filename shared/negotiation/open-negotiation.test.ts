import { describe, expect, it } from 'vitest';
import { signNegotiationDocument, type OpenDocument } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { DEFAULT_LIMITS } from './manifest';
import { openNegotiation } from './open-negotiation';
import { toTimestamp } from './primitives';
import { NegotiationState } from './state';
import { alice, bob, carol, ctx, limits, MINUTE, openDoc, T0, tamper } from './test-support/fixtures';

const codeOf = (input: unknown, c = ctx()) => {
  const r = openNegotiation(input, c);
  return r.ok ? 'ok' : r.error.code;
};

describe('openNegotiation', () => {
  it('opens with the most restrictive class and the Tool limit as max_rounds', () => {
    const r = openNegotiation(openDoc(), ctx());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe('OPEN');
    expect(r.value.parties).toEqual([alice.did, bob.did]);
    expect(r.value.max_rounds).toBe(limits.maxRounds);
    expect(r.value.confidentiality).toBe('internal');
    expect(r.value.regulated_obligations).toEqual([]);
    expect(r.value.history).toHaveLength(1);
    expect(r.value.updated_at).toBe(toTimestamp(T0));
    expect(NegotiationState.safeParse(r.value).success).toBe(true);
  });

  it('lets either party open, and narrows max_rounds when the open document asks', () => {
    const doc = openDoc({ opened_by: bob.did, max_rounds: 2 }, bob);
    const r = openNegotiation(doc, ctx());
    expect(r.ok && r.value.max_rounds).toBe(2);
    expect(r.ok && r.value.opened_by).toBe(bob.did);
  });

  it('flags a regulated party facing an unregulated one (§3.7)', () => {
    const r = openNegotiation(openDoc({ regulated: { [bob.did]: 'medical' } }), ctx());
    expect(r.ok && r.value.regulated_obligations).toEqual([
      {
        party: bob.did,
        profession: 'medical',
        obligations: expect.arrayContaining(['patient-confidentiality']),
        counterparty_unregulated: true,
      },
    ]);
  });

  it('refuses anything but exactly two distinct parties (decision: two parties)', () => {
    expect(codeOf(openDoc({ parties: [alice.did, bob.did, carol.did] }))).toBe(Code.PARTIES_INVALID);
    expect(codeOf(openDoc({ parties: [alice.did] }))).toBe(Code.PARTIES_INVALID);
    expect(codeOf(openDoc({ parties: [alice.did, alice.did] }))).toBe(Code.PARTIES_INVALID);
  });

  it('refuses an opener who is not a party', () => {
    expect(codeOf(openDoc({ opened_by: carol.did }, carol))).toBe(Code.NOT_A_PARTY);
  });

  it('requires a confidentiality class for each party and no one else', () => {
    expect(codeOf(openDoc({ confidentiality: { [alice.did]: 'public' } }))).toBe(Code.PARTIES_INVALID);
    expect(codeOf(openDoc({ confidentiality: { [alice.did]: 'public', [carol.did]: 'public' } }))).toBe(
      Code.PARTIES_INVALID,
    );
    expect(
      codeOf(openDoc({ confidentiality: { [alice.did]: 'public', [bob.did]: 'public', [carol.did]: 'public' } })),
    ).toBe(Code.PARTIES_INVALID);
    expect(codeOf(openDoc({ regulated: { [carol.did]: 'legal' } }))).toBe(Code.PARTIES_INVALID);
  });

  it('verifies the opener signature', () => {
    expect(codeOf(openDoc({}, bob))).toBe(Code.SIGNATURE_INVALID);
    const doc = openDoc();
    expect(codeOf({ ...doc, signature: tamper(doc.signature) })).toBe(Code.SIGNATURE_INVALID);
    expect(codeOf({ ...doc, category: 'scheduling' })).toBe(Code.SIGNATURE_INVALID);
  });

  it('refuses a signed time outside the clock skew, either way', () => {
    expect(codeOf(openDoc({ at: toTimestamp(T0 - 6 * MINUTE) }))).toBe(Code.CLOCK_SKEW);
    expect(codeOf(openDoc({ at: toTimestamp(T0 + 6 * MINUTE) }))).toBe(Code.CLOCK_SKEW);
    expect(codeOf(openDoc({ at: toTimestamp(T0 + 5 * MINUTE) }))).toBe('ok');
  });

  it('applies the manifest categories and round limit (§3.6)', () => {
    const narrow = ctx(T0, { ...limits, categories: ['scheduling'] });
    expect(codeOf(openDoc(), narrow)).toBe(Code.CATEGORY_NOT_SUPPORTED);
    expect(codeOf(openDoc({ category: 'scheduling' }), narrow)).toBe('ok');
    expect(codeOf(openDoc({ max_rounds: limits.maxRounds + 1 }))).toBe(Code.MAX_ROUNDS_EXCEEDED);
    expect(codeOf(openDoc({ max_rounds: 50 }), ctx(T0, DEFAULT_LIMITS))).toBe(Code.MAX_ROUNDS_EXCEEDED);
  });

  it('refuses malformed documents with INVALID_DOCUMENT', () => {
    const doc = openDoc();
    const { signature: _s, ...unsigned } = doc;
    expect(codeOf(unsigned)).toBe(Code.INVALID_DOCUMENT);
    expect(codeOf({ ...doc, extra: 1 })).toBe(Code.INVALID_DOCUMENT);
    expect(codeOf({ ...doc, parties: ['did:web:agent-a.example', bob.did] })).toBe(Code.INVALID_DOCUMENT);
    expect(
      codeOf(
        signNegotiationDocument<OpenDocument>({ ...doc, at: '2026-05-03 10:00' } as OpenDocument, alice.secretKey),
      ),
    ).toBe(Code.INVALID_DOCUMENT);
    expect(codeOf(null)).toBe(Code.INVALID_DOCUMENT);
  });
});
