import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NegotiationErrorCode as Code } from './error-codes';
import { checkClock, parseDocument, verifySignature } from './verify-document';
import { alice, bob, opened, T0, withdrawalDoc } from './test-support/fixtures';

describe('verify-document', () => {
  it('parseDocument returns the data or INVALID_DOCUMENT with the issues', () => {
    expect(parseDocument(z.object({ a: z.number() }), { a: 1 }, 'x')).toEqual({ ok: true, value: { a: 1 } });
    const r = parseDocument(z.object({ a: z.number() }), { a: '1' }, 'x');
    expect(r.ok ? 'ok' : [r.error.code, (r.error.details?.['issues'] as unknown[]).length]).toEqual([
      Code.INVALID_DOCUMENT,
      1,
    ]);
  });

  it('verifySignature names the underlying verdict in details.reason', () => {
    const w = withdrawalDoc(opened(), alice);
    expect(verifySignature(w, alice.did, 'withdrawal').ok).toBe(true);
    const wrong = verifySignature(w, bob.did, 'withdrawal');
    expect(wrong.ok ? 'ok' : [wrong.error.code, wrong.error.details?.['reason']]).toEqual([
      Code.SIGNATURE_INVALID,
      'SIGNATURE_INVALID',
    ]);
    const missing = verifySignature({ ...w, signature: '' }, alice.did, 'withdrawal');
    expect(missing.ok ? 'ok' : missing.error.details?.['reason']).toBe('SIGNATURE_MISSING');
  });

  it('checkClock allows the skew either way, inclusive', () => {
    expect(checkClock(new Date(T0 + 1000).toISOString(), T0, 1000).ok).toBe(true);
    expect(checkClock(new Date(T0 - 1000).toISOString(), T0, 1000).ok).toBe(true);
    const r = checkClock(new Date(T0 - 1001).toISOString(), T0, 1000);
    expect(r.ok ? 'ok' : [r.error.code, r.error.details?.['drift_ms']]).toEqual([Code.CLOCK_SKEW, -1001]);
  });
});
