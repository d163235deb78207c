import { describe, expect, it } from 'vitest';
import type { Envelope } from './envelope';
import { DEFAULT_TTL_SECONDS, MAX_CLOCK_SKEW_MS, checkIncoming } from './check-incoming';
import { ReplayMemory } from './replay-memory';
import type { ReplayView } from './replay-memory';
import { envelopeDigest } from './sign-envelope';
import { canonicalize } from '../crypto/jcs';
import { T0, agentA, client, signed } from './test-support/fixtures';

const empty: ReplayView = { lookup: () => undefined };
const check = (raw: unknown, now = T0, seen: ReplayView = empty) => checkIncoming(raw, { now, seen });
const reason = (result: ReturnType<typeof checkIncoming>) => (result.ok ? 'ok' : result.error.details.reason);
const code = (result: ReturnType<typeof checkIncoming>) => (result.ok ? 'ok' : result.error.code);

describe('checkIncoming', () => {
  const request = signed('REQUEST', { from: client, to: agentA });

  it('accepts a valid signed envelope and reports its digest and expiry', () => {
    const result = check(JSON.parse(JSON.stringify(request)));
    expect(result).toEqual({
      ok: true,
      value: {
        envelope: request,
        digest: envelopeDigest(request),
        duplicate: false,
        expiresAt: T0 + DEFAULT_TTL_SECONDS * 1000,
      },
    });
  });

  it('schema: refuses non-objects and invalid envelopes with INVALID_REQUEST / schema_invalid and the issues', () => {
    for (const raw of [null, 'text', [request], 42]) {
      expect(reason(check(raw))).toBe('schema_invalid');
      expect(code(check(raw))).toBe('INVALID_REQUEST');
    }
    const result = check({ ...request, thread: undefined });
    expect(reason(result)).toBe('schema_invalid');
    if (!result.ok) expect(result.error.details.issues).toEqual([expect.objectContaining({ path: 'thread' })]);
    expect(reason(check({ ...request, version: 1 }))).toBe('schema_invalid');
    expect(reason(check({ ...request, type: 'task_request' }))).toBe('schema_invalid');
  });

  it('version: anything but exactly "1.0" is version_mismatch, checked before the rest of the shape', () => {
    for (const version of ['1.0.0', '1', '1.1', '2.0', ' 1.0']) {
      const result = check({ ...request, version });
      expect(reason(result)).toBe('version_mismatch');
      if (!result.ok) expect(result.error.details).toMatchObject({ expected: '1.0', received: version });
    }
    expect(reason(check({ version: '2.0', entirely: 'different' }))).toBe('version_mismatch');
  });

  it('signature: verified by the receiver (relay included); a forged or altered envelope is FORBIDDEN', () => {
    const altered = { ...request, payload: { ...request.payload, intent: 'translation.en_fr' } };
    expect(reason(check(altered))).toBe('signature_invalid');
    expect(code(check(altered))).toBe('FORBIDDEN');
    expect(reason(check({ ...request, sender: { id: agentA.did } }))).toBe('signature_invalid');
    expect(reason(check({ ...request, sig: 'a+b/' }))).toBe('signature_malformed');
  });

  it('window: accepts |now − ts| < 5 min, strictly, as the spec validateTimestamp', () => {
    expect(check(request, T0 + MAX_CLOCK_SKEW_MS - 1).ok).toBe(true);
    expect(check(request, T0 - MAX_CLOCK_SKEW_MS + 1).ok).toBe(true);
    expect(reason(check(request, T0 + MAX_CLOCK_SKEW_MS))).toBe('timestamp_too_old');
    expect(code(check(request, T0 + MAX_CLOCK_SKEW_MS))).toBe('TIMEOUT');
    expect(reason(check(request, T0 - MAX_CLOCK_SKEW_MS))).toBe('timestamp_in_future');
    expect(code(check(request, T0 - MAX_CLOCK_SKEW_MS))).toBe('INVALID_REQUEST');
  });

  it('replay: the same signed envelope again is accepted as a duplicate; the same id with other content is id_conflict', () => {
    const memory = new ReplayMemory();
    const first = check(request, T0, memory);
    if (!first.ok) throw new Error('expected ok');
    memory.remember(request.id, first.value.digest, T0);

    const again = check(JSON.parse(JSON.stringify(request)), T0 + 1000, memory);
    expect(again.ok && again.value.duplicate).toBe(true);

    const reused = signed('REQUEST', { from: client, id: request.id, payload: { intent: 'other.intent' } });
    expect(reason(check(reused, T0 + 1000, memory))).toBe('id_conflict');
    expect(code(check(reused, T0 + 1000, memory))).toBe('FORBIDDEN');
  });

  it('does not remember anything itself (pure)', () => {
    const memory = new ReplayMemory();
    expect(check(request, T0, memory).ok).toBe(true);
    expect(memory.size).toBe(0);
  });

  it('ttl: expired when ts + ttl < now; default 300 s; the ±5 min window still caps a longer ttl', () => {
    const short = signed('REQUEST', { from: client, meta: { ttl: 30, hop: 0 } });
    expect(check(short, T0 + 30_000).ok).toBe(true);
    expect(reason(check(short, T0 + 30_001))).toBe('ttl_expired');
    expect(code(check(short, T0 + 30_001))).toBe('TIMEOUT');

    const zero = signed('REQUEST', { from: client, meta: { ttl: 0 } });
    expect(check(zero, T0).ok).toBe(true);
    expect(reason(check(zero, T0 + 1))).toBe('ttl_expired');

    const long = signed('REQUEST', { from: client, meta: { ttl: 3600 } });
    const longResult = check(long, T0 + 1000);
    expect(longResult.ok && longResult.value.expiresAt).toBe(T0 + 3_600_000);
    expect(reason(check(long, T0 + MAX_CLOCK_SKEW_MS))).toBe('timestamp_too_old');
  });

  it('runs the steps in order: the first failing step is reported', () => {
    // Wrong version and bad signature and stale: version wins.
    expect(reason(check({ ...request, version: '2.0', sig: 'x' }, T0 + 3_600_000))).toBe('version_mismatch');
    // Bad signature and stale: signature wins.
    expect(
      reason(check({ ...request, sig: request.sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, T0 + 3_600_000)),
    ).toBe('signature_invalid');
    // Replayed with other content and ttl-expired: replay wins.
    const short = signed('REQUEST', { from: client, meta: { ttl: 1 } });
    const seen: ReplayView = { lookup: (id) => (id === short.id ? 'another digest' : undefined) };
    expect(reason(check(short, T0 + 2000, seen))).toBe('id_conflict');
  });

  it('refuses a missing or non-finite clock', () => {
    expect(() => checkIncoming(request, { now: Number.NaN, seen: empty })).toThrow(TypeError);
    expect(() => checkIncoming(request, { now: undefined as unknown as number, seen: empty })).toThrow(TypeError);
  });

  it('returns the envelope with unknown fields intact, so a relay can store exactly what was signed', () => {
    const extended = signed('OFFER', { from: agentA, payload: { x_vendor: { tier: 1 } } });
    const result = check(JSON.parse(JSON.stringify(extended)));
    expect(
      result.ok && (result.value.envelope as Envelope & { payload: { x_vendor: unknown } }).payload.x_vendor,
    ).toEqual({ tier: 1 });
  });

  it('uses an injected signature check and digest, with the signer DID and the exact signed bytes', () => {
    const calls: { did: string; message: string; sigLength: number }[] = [];
    const refuseAll = (did: string, message: Uint8Array, signature: Uint8Array) => {
      calls.push({ did, message: new TextDecoder().decode(message), sigLength: signature.length });
      return false;
    };
    expect(reason(checkIncoming(request, { now: T0, seen: empty, verify: refuseAll }))).toBe('signature_invalid');
    const { sig: _sig, ...unsigned } = request;
    expect(calls).toEqual([{ did: client.did, message: canonicalize(unsigned), sigLength: 64 }]);

    const accepted = checkIncoming(request, { now: T0, seen: empty, verify: () => true, digest: () => 'custom' });
    expect(accepted.ok && accepted.value.digest).toBe('custom');
    // The injected check decides alone: a forgery it approves passes, which is why it must be strict.
    const forged = { ...request, payload: { ...request.payload, intent: 'other' } };
    expect(reason(checkIncoming(forged, { now: T0, seen: empty, verify: () => true }))).toBe('ok');
  });
});
