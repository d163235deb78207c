// The signature scheme against a vector: the secret, time and body below, with the HMAC written
// out once and recomputed here from node:crypto the way a receiver would, by the documented rule.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isWebhookSecret, newWebhookSecret, signWebhook, verifyWebhookSignature } from './signature';

const SECRET = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY';
const T = 1_700_000_000;
const BODY = new TextEncoder().encode('{"id":"evt_1","type":"webhook.test"}');
const V1 = 'a7a9b648a13f97c25f877c8a4889a6b82a3908b4cd484d3ee38c1f5a96058958';

describe('webhook signatures', () => {
  it('signs HMAC-SHA256(secret, "<t>.<body>") as t=…,v1=<hex>', () => {
    const byHand = createHmac('sha256', SECRET).update(`${T}.{"id":"evt_1","type":"webhook.test"}`).digest('hex');
    expect(byHand).toBe(V1);
    expect(signWebhook(SECRET, T, BODY)).toBe(`t=${T},v1=${V1}`);
  });

  it('verifies its own header and refuses another body, secret, a stale time or a malformed header', () => {
    const header = signWebhook(SECRET, T, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, T + 10)).toEqual({ ok: true, t: T });
    expect(verifyWebhookSignature(SECRET, header, new TextEncoder().encode('{"id":"evt_2"}'), T)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifyWebhookSignature(newWebhookSecret(), header, BODY, T).ok).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, T + 301)).toEqual({ ok: false, reason: 'too_old' });
    expect(verifyWebhookSignature(SECRET, `t=${T}`, BODY, T)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyWebhookSignature(SECRET, `v1=${V1}`, BODY, T)).toEqual({ ok: false, reason: 'malformed' });
    // A rotating receiver may list several v1 values; one that matches is enough.
    expect(verifyWebhookSignature(SECRET, `t=${T},v1=${'0'.repeat(64)},v1=${V1}`, BODY, T).ok).toBe(true);
  });

  it('makes secrets of 32 random bytes, each different', () => {
    const a = newWebhookSecret();
    expect(isWebhookSecret(a)).toBe(true);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(newWebhookSecret());
    expect(isWebhookSecret('whsec_short')).toBe(false);
    expect(() => signWebhook(SECRET, 1.5, BODY)).toThrow(RangeError);
  });
});
