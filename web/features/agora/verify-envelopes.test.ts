import { describe, expect, it } from 'vitest';
import { checkIncoming } from '@shared/agora/check-incoming';
import { signEnvelope } from '@shared/agora/sign-envelope';
import { verify } from '@shared/crypto/ed25519';
import { agentA, client, signed, T0 } from '@shared/agora/test-support/fixtures';
import type { VerifyItem } from '@web/lib/crypto/webcrypto-verify';
import { buildAccept, buildRequest } from './envelope-builders';
import { verifyEnvelopes } from './verify-envelopes';

// noble, the same strict RFC 8032 rule as WebCrypto's batch (e2e/crypto-verdicts.spec.ts).
const noble = async (items: readonly VerifyItem[]) =>
  items.map((i) => verify(new Uint8Array(i.signature), new Uint8Array(i.message), new Uint8Array(i.publicKey)));
// What the relay serves: the stored JSON text, parsed again.
const served = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('verifyEnvelopes', () => {
  it('verifies untouched envelopes as served by the relay, unknown fields included', async () => {
    const request = signed('REQUEST', { from: client, to: agentA, payload: { extra: { nested: [1, 'two'] } } });
    const offer = signed('OFFER', { from: agentA, to: client });
    const verdicts = await verifyEnvelopes([served(request), served(offer)], noble);
    expect(verdicts).toEqual([
      { status: 'verified', signer: client.did },
      { status: 'verified', signer: agentA.did },
    ]);
  });

  it('never verifies an envelope changed after signing: payload, sender or signature', async () => {
    const result = served(signed('RESULT', { from: agentA, to: client })) as {
      payload: { output: unknown };
      sender: { id: string };
      sig: string;
    };
    const changedOutput = { ...result, payload: { ...result.payload, output: { translation: '<b>owned</b>' } } };
    const otherSender = { ...result, sender: { ...result.sender, id: client.did } };
    const otherSig = { ...result, sig: result.sig.slice(0, -2) + (result.sig.endsWith('AA') ? 'BA' : 'AA') };
    const verdicts = await verifyEnvelopes([changedOutput, otherSender, otherSig], noble);
    for (const verdict of verdicts) expect(verdict.status).toBe('failed');
    expect(verdicts[0]).toMatchObject({
      reason: 'signature_invalid',
      words: 'the signature does not verify against sender.id',
    });
  });

  it('says why when there is nothing to verify, and keeps the order of its input', async () => {
    const good = served(signed('OFFER', { from: agentA }));
    const { sig: _sig, ...unsigned } = good as Record<string, unknown>;
    const verdicts = await verifyEnvelopes(
      [
        null,
        { hello: 'world', sig: 'x' },
        unsigned,
        { ...(good as object), version: '2.0' },
        good,
        { ...(good as object), sig: '!!' },
      ],
      noble,
    );
    expect(verdicts.map((v) => (v.status === 'failed' ? v.reason : v.status))).toEqual([
      'schema_invalid',
      'schema_invalid',
      'signature_missing',
      'version_mismatch',
      'verified',
      'signature_malformed',
    ]);
  });

  it('uses the batch verifier for the Ed25519 step, so its verdict is the one shown', async () => {
    const envelope = served(signed('OFFER', { from: agentA }));
    expect(await verifyEnvelopes([envelope], async (items) => items.map(() => false))).toEqual([
      expect.objectContaining({ status: 'failed', reason: 'signature_invalid' }),
    ]);
    expect(
      await verifyEnvelopes([], async () => {
        throw new Error('not called');
      }),
    ).toEqual([]);
  });
});

describe('operator envelopes', () => {
  const ids = () => {
    let n = 0;
    return () => `id${++n}`;
  };

  it('a REQUEST built and signed for an agent passes the relay’s checks and verifies in the browser', async () => {
    const unsigned = buildRequest(
      {
        operatorDid: client.did,
        agentDid: agentA.did,
        intent: 'translation.en_zh',
        params: { text: 'Hello world' },
        title: '  Greet  ',
        maxCostUsd: 0.01,
      },
      { now: T0, newId: ids() },
    );
    expect(unsigned).toMatchObject({
      type: 'REQUEST',
      sender: { id: client.did },
      recipient: { id: agentA.did },
      thread: { id: 'thread_id3' },
      payload: {
        request_id: 'req_id2',
        intent: 'translation.en_zh',
        title: 'Greet',
        params: { text: 'Hello world' },
        constraints: { max_cost_usd: 0.01 },
      },
    });
    const envelope = signEnvelope(unsigned, client.secretKey);
    const checked = checkIncoming(served(envelope), { now: T0, seen: { lookup: () => undefined } });
    expect(checked.ok).toBe(true);
    expect(await verifyEnvelopes([served(envelope)], noble)).toEqual([{ status: 'verified', signer: client.did }]);
  });

  it('an ACCEPT names the offer by id, goes to its agent, and repeats a USD price as the terms', () => {
    const offer = signed('OFFER', { from: agentA, to: client, thread: 'thread_9', payload: { request_id: 'req_9' } });
    if (offer.type !== 'OFFER') throw new Error('fixture');
    const accept = buildAccept(client.did, offer, { now: T0 + 1000, newId: ids() });
    expect(accept).toMatchObject({
      type: 'ACCEPT',
      recipient: { id: agentA.did },
      thread: { id: 'thread_9' },
      payload: { request_id: 'req_9', offer_id: offer.id, terms: { price_usd: 0.005 } },
    });
    const eur = buildAccept(
      client.did,
      { ...offer, payload: { ...offer.payload, price: { amount: 3, currency: 'EUR' } } },
      { now: T0, newId: ids() },
    );
    expect(eur.payload).not.toHaveProperty('terms');
    expect(
      checkIncoming(served(signEnvelope(accept, client.secretKey)), { now: T0, seen: { lookup: () => undefined } }).ok,
    ).toBe(true);
  });
});
