// Webhook signatures, Stripe's scheme with the delivery id inside (decisions-server.md §59, §80):
//   Switchboard-Signature: t=<unix seconds>,v2=<hex HMAC-SHA256(secret, "<t>.<delivery id>.<body>")>
// where the key is the secret's text as UTF-8 (`whsec_…`, as Stripe keys with its own secret), the
// delivery id is the `Switchboard-Delivery` header receivers dedupe on (signed, so nobody can
// replay a delivery under a fresh id or suppress one by reusing an id), and the body is the exact
// bytes sent. A receiver recomputes it, compares in constant time and refuses a `t` far from its
// clock (replays); several v2 entries may appear while a secret rotates.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Switchboard-Signature';
export const EVENT_HEADER = 'Switchboard-Event';
export const DELIVERY_HEADER = 'Switchboard-Delivery';

const SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/** 32 random bytes, base64url, behind `whsec_`: the form the console shows once. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Whether `secret` has the form newWebhookSecret makes (WEBHOOKS entries must too). */
export const isWebhookSecret = (secret: string): boolean => SECRET_PATTERN.test(secret);

function mac(secret: string, t: number, deliveryId: string, body: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${deliveryId}.`, 'utf8').update(body).digest();
}

/** Delivery ids are ours (`dlv_…`); a dot inside one would make "<t>.<id>.<body>" ambiguous. */
const DELIVERY_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The header value for delivery `deliveryId` of `body`, sent at `t` (whole unix seconds). */
export function signWebhook(secret: string, t: number, deliveryId: string, body: Uint8Array): string {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError('t must be whole unix seconds');
  if (!DELIVERY_ID.test(deliveryId)) throw new RangeError('a delivery id is 1 to 128 of A-Z a-z 0-9 _ -');
  return `t=${t},v2=${mac(secret, t, deliveryId, body).toString('hex')}`;
}

export type SignatureVerdict =
  | { readonly ok: true; readonly t: number }
  | { readonly ok: false; readonly reason: 'malformed' | 'too_old' | 'mismatch' };

/**
 * A receiver's check: the header parses, its `t` is within `toleranceSeconds` of `nowSeconds`
 * (default 5 minutes, as Stripe's libraries), and one of its v2 values is the HMAC of the
 * `Switchboard-Delivery` id and the body.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string,
  deliveryId: string,
  body: Uint8Array,
  nowSeconds: number,
  toleranceSeconds = 300,
): SignatureVerdict {
  let t: number | undefined;
  const v2: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v2' && /^[0-9a-f]{64}$/.test(value)) v2.push(Buffer.from(value, 'hex'));
  }
  if (t === undefined || v2.length === 0 || !DELIVERY_ID.test(deliveryId)) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: 'too_old' };
  const expected = mac(secret, t, deliveryId, body);
  return v2.some((candidate) => timingSafeEqual(candidate, expected))
    ? { ok: true, t }
    : { ok: false, reason: 'mismatch' };
}
