// The signature scheme against a vector: the secret, time, delivery id and body below, with the
// HMAC written out once and recomputed here from node:crypto the way a receiver would, by the
// documented rule.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isWebhookSecret, newWebhookSecret, signWebhook, verifyWebhookSignature } from './signature';

const SECRET = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY';
const T = 1_700_000_000;
const ID = 'dlv_0b6e1f7c-4a55-4c2e-9d43-2f1a1c0d9e11';
const BODY = new TextEncoder().encode('{"id":"evt_1","type":"webhook.test"}');
const V2 = '50baf0d91f958fb5f71517650f7ba5724caeab0110c14b03cab53504d8fbcd7a';

describe('webhook signatures', () => {
  it('signs HMAC-SHA256(secret, "<t>.<delivery id>.<body>") as t=…,v2=<hex>', () => {
    const byHand = createHmac('sha256', SECRET).update(`${T}.${ID}.{"id":"evt_1","type":"webhook.test"}`).digest('hex');
    expect(byHand).toBe(V2);
    expect(signWebhook(SECRET, T, ID, BODY)).toBe(`t=${T},v2=${V2}`);
  });

  it('verifies its own header and refuses another body, secret, a stale time or a malformed header', () => {
    const header = signWebhook(SECRET, T, ID, BODY);
    expect(verifyWebhookSignature(SECRET, header, ID, BODY, T + 10)).toEqual({ ok: true, t: T });
    expect(verifyWebhookSignature(SECRET, header, ID, new TextEncoder().encode('{"id":"evt_2"}'), T)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifyWebhookSignature(newWebhookSecret(), header, ID, BODY, T).ok).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, ID, BODY, T + 301)).toEqual({ ok: false, reason: 'too_old' });
    expect(verifyWebhookSignature(SECRET, `t=${T}`, ID, BODY, T)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyWebhookSignature(SECRET, `v2=${V2}`, ID, BODY, T)).toEqual({ ok: false, reason: 'malformed' });
    // A rotating receiver may list several v2 values; one that matches is enough.
    expect(verifyWebhookSignature(SECRET, `t=${T},v2=${'0'.repeat(64)},v2=${V2}`, ID, BODY, T).ok).toBe(true);
  });

  it('covers the delivery id receivers dedupe on: the same body under another id does not verify (decisions-server.md §80)', () => {
    const header = signWebhook(SECRET, T, ID, BODY);
    expect(verifyWebhookSignature(SECRET, header, 'dlv_another', BODY, T)).toEqual({ ok: false, reason: 'mismatch' });
    // Ids with a dot would make the signed text ambiguous: refused both ways.
    expect(() => signWebhook(SECRET, T, 'dlv.1', BODY)).toThrow(RangeError);
    expect(verifyWebhookSignature(SECRET, header, `${ID}.x`, BODY, T)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('makes secrets of 32 random bytes, each different', () => {
    const a = newWebhookSecret();
    expect(isWebhookSecret(a)).toBe(true);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(newWebhookSecret());
    expect(isWebhookSecret('whsec_short')).toBe(false);
    expect(() => signWebhook(SECRET, 1.5, ID, BODY)).toThrow(RangeError);
  });
});
