// Bridged envelopes (decisions-agora.md §34): one is trusted only when it passes the built-in relay's checks;
// otherwise it is kept with its reason and never applied to the thread.
import { describe, expect, it } from 'vitest';
import { agentA, client, signed, T0 } from '@shared/agora/test-support/fixtures';
import { DidVerifier } from '../crypto/node-verifier';
import type { BridgedEnvelope } from '../store/service-registry-store';
import { foldBridgedThread } from './bridged-threads';
import { verifyBridged } from './bridge-verify';

const context = { now: T0, verifier: new DidVerifier(), knownDigest: async () => undefined };

const row = (seq: number, verdict: Awaited<ReturnType<typeof verifyBridged>>): BridgedEnvelope => {
  if (verdict.kind !== 'store') throw new Error('expected something to store');
  return { ...verdict.envelope, seq, serviceId: 'svc_1' };
};

describe('verifying bridged envelopes', () => {
  it('trusts an untouched envelope; keeps a forged, a stale or an unparseable one untrusted with its reason', async () => {
    const request = signed('REQUEST', { from: client, to: agentA, ts: T0 });
    const offer = signed('OFFER', { from: agentA, to: client, ts: T0 });
    const forged = { ...offer, payload: { ...offer.payload, price: { amount: 0, currency: 'USD' } } };
    expect(await verifyBridged(request, context)).toMatchObject({
      kind: 'store',
      envelope: { trusted: true, reason: null, envelopeId: request.id },
    });
    expect(await verifyBridged(forged, context)).toMatchObject({
      kind: 'store',
      envelope: { trusted: false, reason: 'signature_invalid', envelopeId: offer.id, digest: null },
    });
    expect(await verifyBridged(request, { ...context, now: T0 + 6 * 60_000 })).toMatchObject({
      kind: 'store',
      envelope: { trusted: false, reason: 'timestamp_too_old' },
    });
    expect(await verifyBridged({ version: '2.0' }, context)).toMatchObject({
      kind: 'store',
      envelope: { trusted: false, reason: 'version_mismatch', threadId: null },
    });
    // Seen already with the same digest: a duplicate, nothing stored.
    const first = await verifyBridged(request, context);
    const digest = first.kind === 'store' ? first.envelope.digest : null;
    expect(await verifyBridged(request, { ...context, knownDigest: async () => digest })).toEqual({
      kind: 'duplicate',
    });
  });

  it('never applies an untrusted envelope to the thread state', async () => {
    const request = signed('REQUEST', { from: client, to: agentA, ts: T0, thread: 't1' });
    const offer = signed('OFFER', { from: agentA, to: client, ts: T0, thread: 't1' });
    const forged = { ...offer, payload: { ...offer.payload, plan: 'forged' } };
    const rows = [row(1, await verifyBridged(request, context)), row(2, await verifyBridged(forged, context))];
    const { thread, events } = foldBridgedThread('svc_1', 't1', rows);
    expect(thread).toMatchObject({ status: 'PENDING', untrusted: 1, state: { offers: [] } });
    expect(events.map((e) => [e.trusted, e.applied, e.reason])).toEqual([
      [true, true, null],
      [false, false, 'signature_invalid'],
    ]);
  });

  it('applies an OFFER that arrived before its REQUEST (two polls) once the REQUEST is there', async () => {
    const request = signed('REQUEST', { from: client, to: agentA, ts: T0, thread: 't2' });
    const offer = signed('OFFER', { from: agentA, to: client, ts: T0, thread: 't2' });
    const rows = [row(1, await verifyBridged(offer, context)), row(2, await verifyBridged(request, context))];
    const { thread, events } = foldBridgedThread('svc_1', 't2', rows);
    expect(thread.status).toBe('PENDING');
    expect(thread.state).toMatchObject({ offers: [{ offerId: offer.id }] });
    expect(events.map((e) => e.applied)).toEqual([true, true]);
  });
});
