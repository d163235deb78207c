import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { applyRedactionRequest, signRedactionRequest } from './redaction-request';
import { alice, carol, MINUTE, signedAgreement, T0, tamper } from './test-support/fixtures';
import { appendEntry, entryHash, verifyChain } from './transparency-log';

const agreement = signedAgreement(1);
const entry = unwrap(appendEntry(null, { agreement, now: T0 }));
const ctx = { now: T0, clockSkewMs: 5 * MINUTE };
const request = (overrides: Record<string, unknown> = {}, signer = alice) =>
  signRedactionRequest(
    {
      type: 'redact',
      index: 0,
      agreement_id: agreement.agreement_id,
      pointers: ['/terms/attendee_note'],
      by: alice.did,
      at: new Date(T0).toISOString(),
      ...overrides,
    } as never,
    signer.secretKey,
  );

describe('applyRedactionRequest (decision 21)', () => {
  it('hides the named non-material field; the entry hash and the chain still verify', () => {
    const redacted = unwrap(applyRedactionRequest(entry, request(), ctx));
    expect(redacted.public.disclosures['/terms/attendee_note']).toHaveProperty('digest');
    expect(redacted.entry_hash).toBe(entry.entry_hash);
    expect(entryHash(redacted)).toBe(entry.entry_hash);
    expect(verifyChain([redacted]).ok).toBe(true);
  });

  it('refuses material fields, strangers, bad signatures, skewed clocks and other entries, with codes', () => {
    const code = (input: unknown) => {
      const r = applyRedactionRequest(entry, input, ctx);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code(request({ pointers: ['/parties'] }))).toBe(Code.MATERIAL_FIELD_REDACTED);
    expect(code(request({ pointers: ['/terms/nope'] }))).toBe(Code.UNKNOWN_FIELD);
    expect(code(request({ by: carol.did }, carol))).toBe(Code.NOT_A_PARTY);
    const good = request();
    expect(code({ ...good, signature: tamper(good.signature) })).toBe(Code.SIGNATURE_INVALID);
    expect(code(request({ at: new Date(T0 + 10 * MINUTE).toISOString() }))).toBe(Code.CLOCK_SKEW);
    expect(code(request({ index: 1 }))).toBe(Code.LOG_INDEX_MISMATCH);
    expect(code(request({ agreement_id: 'agr_other' }))).toBe(Code.LOG_INDEX_MISMATCH);
    expect(code({ ...good, extra: 1 })).toBe(Code.INVALID_DOCUMENT);
  });
});
