// Interop: envelopes signed exactly as Agora "Signing Process" describes, by
// code that shares nothing with the project's signer: node:crypto Ed25519 and the `canonicalize`
// package (RFC 8785 by its authors), did:key built by hand from Appendix A. The relay must
// accept the honest one and refuse each tampered one with its coded reason.
import { generateKeyPairSync, sign as edSign, type KeyObject } from 'node:crypto';
import { base58 } from '@scure/base';
import canonicalize from 'canonicalize';
import { afterEach, describe, expect, it } from 'vitest';
import { relayApp, type RelayApp } from '../test-support/relay-app';

let r: RelayApp;
afterEach(async () => {
  r.services.feed.close();
  await r.temp.dispose();
});

interface Signer {
  readonly did: string;
  readonly privateKey: KeyObject;
}

function newSigner(): Signer {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x!; // base64url of the 32 key bytes
  const bytes = Buffer.from(raw, 'base64url');
  // Appendix A: "did:key:z" + base58btc(0xed 0x01 ‖ key)
  return { did: `did:key:z${base58.encode(Uint8Array.from([0xed, 0x01, ...bytes]))}`, privateKey };
}

type Json = Record<string, unknown>;

/** Steps 1-4 of "Signing Process", literally. */
function specSign(envelope: Json, signer: Signer): Json {
  const { sig: _drop, ...unsigned } = envelope;
  const canonical = canonicalize(unsigned)!;
  const signature = edSign(null, Buffer.from(canonical, 'utf8'), signer.privateKey);
  return { ...unsigned, sig: Buffer.from(signature).toString('base64url') };
}

function request(signer: Signer, now: number, overrides: Json = {}): Json {
  return {
    version: '1.0',
    id: `msg_${Math.random().toString(36).slice(2)}`,
    ts: new Date(now).toISOString().replace('.000Z', 'Z'),
    type: 'REQUEST',
    sender: { id: signer.did, name: 'Interop client' },
    payload: {
      request_id: 'req_01jqk7z9',
      intent: 'translation.en_zh',
      params: { text: 'Hello world' },
      constraints: { max_cost_usd: 0.01 },
    },
    thread: { id: `thread_${Math.random().toString(36).slice(2)}` },
    meta: { ttl: 300, hop: 0 },
    ...overrides,
  };
}

const reasonOf = async (res: Response) =>
  ((await res.json()) as { details?: { reason?: string } }).details?.reason ?? 'ok';

describe('interop: envelopes signed by independent code', () => {
  it('accepts an envelope signed exactly as the spec describes', async () => {
    r = relayApp();
    const signer = newSigner();
    const envelope = specSign(request(signer, r.clock.now()), signer);
    const res = await r.post(envelope);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, id: envelope.id });
  });

  it('refuses each tampering with its coded error, and stores none of them', async () => {
    r = relayApp();
    const signer = newSigner();
    const other = newSigner();
    const now = r.clock.now();
    const honest = specSign(request(signer, now), signer);
    await r.post(honest);

    // A flipped byte in a signed field after signing.
    const flipped = { ...honest, payload: { ...(honest.payload as Json), intent: 'translation.en_zi' } };
    // A flipped byte in the signature itself.
    const sigBytes = Buffer.from(honest.sig as string, 'base64url');
    sigBytes[10] = (sigBytes[10] ?? 0) ^ 0x01;
    const flippedSig = { ...honest, id: 'msg_flipsig', sig: sigBytes.toString('base64url') };
    // Signed by another key than sender.id names.
    const otherKey = {
      ...specSign(request(signer, now, { id: 'msg_otherkey' }), other),
      sender: { id: signer.did, name: 'Interop client' },
    };
    // Signed over a non-canonical encoding (JSON.stringify in insertion order, not JCS).
    const plain = request(signer, now, { id: 'msg_noncanonical' });
    const nonCanonical = {
      ...plain,
      sig: Buffer.from(edSign(null, Buffer.from(JSON.stringify(plain)), signer.privateKey)).toString('base64url'),
    };
    // A signature with a non-canonical encoding: padded base64url, and S + L (RFC 8032 §5.1.7).
    const padded = { ...specSign(request(signer, now, { id: 'msg_padded' }), signer) };
    padded.sig = `${padded.sig as string}==`;
    const malleable = specSign(request(signer, now, { id: 'msg_s_plus_l' }), signer);
    malleable.sig = Buffer.from(addL(Buffer.from(malleable.sig as string, 'base64url'))).toString('base64url');
    // A stale timestamp (5 minutes old), a replayed id (other content), a wrong version.
    const stale = specSign(request(signer, now - 5 * 60_000, { id: 'msg_stale' }), signer);
    const replayed = specSign(request(signer, now, { id: honest.id, thread: { id: 'thread_replay' } }), signer);
    const wrongVersion = specSign(request(signer, now, { id: 'msg_version', version: '1.1' }), signer);

    const expected: [string, Json, number, string, string][] = [
      ['flipped byte', flipped, 403, 'FORBIDDEN', 'signature_invalid'],
      ['flipped signature byte', flippedSig, 403, 'FORBIDDEN', 'signature_invalid'],
      ['another key', otherKey, 403, 'FORBIDDEN', 'signature_invalid'],
      ['non-canonical JSON signed', nonCanonical, 403, 'FORBIDDEN', 'signature_invalid'],
      ['padded base64url', padded, 400, 'INVALID_REQUEST', 'signature_malformed'],
      ['S + L', malleable, 403, 'FORBIDDEN', 'signature_invalid'],
      ['stale timestamp', stale, 400, 'TIMEOUT', 'timestamp_too_old'],
      ['replayed id', replayed, 409, 'FORBIDDEN', 'id_conflict'],
      ['wrong version', wrongVersion, 400, 'INVALID_REQUEST', 'version_mismatch'],
    ];
    for (const [name, envelope, status, code, reason] of expected) {
      const res = await r.post(envelope);
      const answer = (await res.json()) as { code: string; details: { reason: string } };
      expect({ name, status: res.status, code: answer.code, reason: answer.details.reason }).toEqual({
        name,
        status,
        code,
        reason,
      });
    }
    // The honest envelope re-posted is still fine (idempotent); nothing else was stored.
    expect(await reasonOf(await r.post(honest))).toBe('ok');
    expect(await r.services.relay.store.headSeq()).toBe(1);
  });
});

/** S + L, little-endian, in the signature's second half: same point, non-canonical scalar. */
function addL(signature: Uint8Array): Uint8Array {
  const L = 2n ** 252n + 27742317777372353535851937790883648493n;
  const s = [...signature.slice(32)].reverse().reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  let value = s + L;
  const out = new Uint8Array(64);
  out.set(signature.slice(0, 32));
  for (let i = 32; i < 64; i++) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return out;
}
