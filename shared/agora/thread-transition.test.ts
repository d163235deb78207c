import { describe, expect, it } from 'vitest';
import type { Envelope } from './envelope';
import { openThread } from './thread-state';
import type { ThreadState } from './thread-state';
import { transition } from './thread-transition';
import type { ThreadResult } from './thread-transition';
import { T0, agentA, agentB, client, iso, stranger, unsignedAs } from './test-support/fixtures';

const msg = (envelope: Envelope, now = T0) => ({ type: 'message' as const, envelope, now });
const step = (state: ThreadState, envelope: Envelope, now = T0): ThreadResult => transition(state, msg(envelope, now));
const reason = (result: ThreadResult) => (result.ok ? `ok:${result.value.status}` : result.error.details.reason);

/** Applies envelopes in order, failing the test on the first refusal. */
function run(...envelopes: Envelope[]): ThreadState {
  return envelopes.reduce<ThreadState>((state, envelope, i) => {
    const result = step(state, envelope, T0 + i);
    if (!result.ok) throw new Error(`step ${i} (${envelope.type}) refused: ${result.error.details.reason}`);
    return result.value;
  }, openThread('thread_1'));
}

const request = unsignedAs('REQUEST', { from: client, id: 'msg_req' });
const addressed = unsignedAs('REQUEST', { from: client, to: agentA, id: 'msg_req' });
const offerA = unsignedAs('OFFER', { from: agentA, id: 'offer_a' });
const offerB = unsignedAs('OFFER', { from: agentB, id: 'offer_b' });
const acceptA = unsignedAs('ACCEPT', { from: client, to: agentA, id: 'acc', payload: { offer_id: 'offer_a' } });
const resultA = unsignedAs('RESULT', { from: agentA, id: 'res' });

describe('OPEN', () => {
  it('REQUEST opens the thread: PENDING, client = sender, addressed agent remembered', () => {
    expect(run(request)).toEqual({
      status: 'PENDING',
      threadId: 'thread_1',
      client: client.did,
      requestId: 'req_1',
      requestMessageId: 'msg_req',
      intent: 'translation.en_zh',
      requestedAt: T0,
      offers: [],
    });
    expect(run(addressed)).toMatchObject({ addressedTo: agentA.did });
  });

  it('anything else before a REQUEST is thread_not_started; ERROR included (no parties yet)', () => {
    for (const envelope of [
      offerA,
      acceptA,
      resultA,
      unsignedAs('ERROR', { from: client }),
      unsignedAs('CANCEL', { from: client }),
    ]) {
      expect(reason(step(openThread('thread_1'), envelope))).toBe('thread_not_started');
    }
  });

  it('a message for another thread is thread_mismatch', () => {
    expect(reason(step(openThread('thread_2'), request))).toBe('thread_mismatch');
    expect(reason(step(run(request), unsignedAs('OFFER', { from: agentA, thread: 'thread_2' })))).toBe(
      'thread_mismatch',
    );
  });
});

describe('PENDING', () => {
  it('takes several OFFERs, from several agents, and records valid_until', () => {
    const withValidity = unsignedAs('OFFER', {
      from: agentA,
      id: 'offer_a2',
      payload: { valid_until: '2026-02-02T15:35:00Z' },
    });
    const state = run(request, offerA, offerB, withValidity);
    expect(state.status === 'PENDING' && state.offers).toEqual([
      { offerId: 'offer_a', agent: agentA.did, receivedAt: T0 + 1 },
      { offerId: 'offer_b', agent: agentB.did, receivedAt: T0 + 2 },
      { offerId: 'offer_a2', agent: agentA.did, receivedAt: T0 + 3, validUntil: Date.UTC(2026, 1, 2, 15, 35) },
    ]);
  });

  it('refuses a second REQUEST, an OFFER from the client, to someone else, with the wrong request_id, or twice', () => {
    const state = run(request, offerA);
    expect(reason(step(state, unsignedAs('REQUEST', { from: client })))).toBe('thread_already_started');
    expect(reason(step(state, unsignedAs('OFFER', { from: client })))).toBe('client_cannot_offer');
    expect(reason(step(state, unsignedAs('OFFER', { from: agentB, to: stranger })))).toBe('recipient_mismatch');
    expect(reason(step(state, unsignedAs('OFFER', { from: agentB, payload: { request_id: 'req_2' } })))).toBe(
      'request_id_mismatch',
    );
    expect(reason(step(state, offerA))).toBe('duplicate_message');
    expect(reason(step(state, unsignedAs('OFFER', { from: agentB, to: client })))).toBe('ok:PENDING');
  });

  it('an addressed REQUEST takes OFFERs only from its recipient', () => {
    const state = run(addressed);
    expect(reason(step(state, offerB))).toBe('not_a_party');
    expect(reason(step(state, offerA))).toBe('ok:PENDING');
  });

  it('ACCEPT by offer_id moves to ACTIVE and binds the offering agent', () => {
    const state = run(request, offerA, offerB, acceptA);
    expect(state).toMatchObject({
      status: 'ACTIVE',
      accepted: { offerId: 'offer_a', agent: agentA.did, acceptId: 'acc', at: T0 + 3 },
    });
  });

  it('ACCEPT without offer_id: the latest offer of recipient.id, or of the only agent that offered', () => {
    const revised = unsignedAs('OFFER', { from: agentA, id: 'offer_a_rev' });
    const byRecipient = run(request, offerA, offerB, revised, unsignedAs('ACCEPT', { from: client, to: agentA }));
    expect(byRecipient).toMatchObject({ accepted: { offerId: 'offer_a_rev', agent: agentA.did } });
    const onlyOne = run(request, offerB, unsignedAs('ACCEPT', { from: client }));
    expect(onlyOne).toMatchObject({ accepted: { offerId: 'offer_b', agent: agentB.did } });
  });

  it('ACCEPT must come from the client and name an existing, unexpired offer unambiguously', () => {
    const state = run(request, offerA, offerB);
    expect(reason(step(state, unsignedAs('ACCEPT', { from: agentA, payload: { offer_id: 'offer_a' } })))).toBe(
      'not_the_client',
    );
    expect(
      reason(
        step(state, unsignedAs('ACCEPT', { from: client, payload: { offer_id: 'offer_a', request_id: 'req_9' } })),
      ),
    ).toBe('request_id_mismatch');
    expect(reason(step(state, unsignedAs('ACCEPT', { from: client, payload: { offer_id: 'nope' } })))).toBe(
      'offer_not_found',
    );
    expect(
      reason(step(state, unsignedAs('ACCEPT', { from: client, to: agentB, payload: { offer_id: 'offer_a' } }))),
    ).toBe('recipient_mismatch');
    expect(reason(step(state, unsignedAs('ACCEPT', { from: client })))).toBe('offer_ambiguous');
    expect(reason(step(state, unsignedAs('ACCEPT', { from: client, to: stranger })))).toBe('offer_not_found');
    expect(reason(step(run(request), unsignedAs('ACCEPT', { from: client })))).toBe('offer_not_found');
  });

  it('an OFFER past its valid_until cannot be accepted (at the receiver clock; valid_until itself is still valid)', () => {
    const validUntil = T0 + 60_000;
    const state = run(
      request,
      unsignedAs('OFFER', { from: agentA, id: 'offer_a', payload: { valid_until: iso(validUntil) } }),
    );
    expect(reason(step(state, acceptA, validUntil))).toBe('ok:ACTIVE');
    const late = step(state, acceptA, validUntil + 1);
    expect(reason(late)).toBe('offer_expired');
    expect(!late.ok && late.error.code).toBe('INVALID_REQUEST');
  });

  it('RESULT and CANCEL are thread_not_active while PENDING', () => {
    const state = run(request, offerA);
    expect(reason(step(state, resultA))).toBe('thread_not_active');
    expect(reason(step(state, unsignedAs('CANCEL', { from: client })))).toBe('thread_not_active');
  });

  it('ERROR from the client, or from the addressed agent, ends the thread; from a mere offerer it is not_a_party', () => {
    const byClient = step(run(request, offerA), unsignedAs('ERROR', { from: client, id: 'err' }), T0 + 9);
    expect(byClient.ok && byClient.value).toMatchObject({
      status: 'ERROR',
      ended: {
        type: 'error_message',
        by: client.did,
        code: 'INSUFFICIENT_BUDGET',
        messageId: 'err',
        from: 'PENDING',
        at: T0 + 9,
      },
    });
    expect(
      reason(step(run(addressed), unsignedAs('ERROR', { from: agentA, payload: { code: 'INTENT_NOT_SUPPORTED' } }))),
    ).toBe('ok:ERROR');
    expect(reason(step(run(request, offerA), unsignedAs('ERROR', { from: agentA })))).toBe('not_a_party');
    expect(reason(step(run(request), unsignedAs('ERROR', { from: client, payload: { request_id: 'req_9' } })))).toBe(
      'request_id_mismatch',
    );
    expect(reason(step(run(addressed), unsignedAs('ERROR', { from: client, to: agentB })))).toBe('recipient_mismatch');
  });
});

describe('ACTIVE', () => {
  const active = run(request, offerA, offerB, acceptA);

  it('exactly one ACCEPT per thread', () => {
    expect(reason(step(active, acceptA))).toBe('duplicate_accept');
    expect(reason(step(active, unsignedAs('ACCEPT', { from: client, payload: { offer_id: 'offer_b' } })))).toBe(
      'duplicate_accept',
    );
  });

  it('no more OFFERs', () => {
    expect(reason(step(active, unsignedAs('OFFER', { from: agentB })))).toBe('thread_not_pending');
  });

  it('RESULT from the accepted agent completes the thread', () => {
    const done = step(active, resultA, T0 + 50);
    expect(done.ok && done.value).toMatchObject({
      status: 'COMPLETED',
      result: { messageId: 'res', status: 'success', at: T0 + 50 },
    });
  });

  it('RESULT from anyone else, to someone else, or for another request is refused', () => {
    expect(reason(step(active, unsignedAs('RESULT', { from: agentB })))).toBe('not_the_accepted_agent');
    expect(reason(step(active, unsignedAs('RESULT', { from: client })))).toBe('not_the_accepted_agent');
    expect(reason(step(active, unsignedAs('RESULT', { from: agentA, to: agentB })))).toBe('recipient_mismatch');
    expect(reason(step(active, unsignedAs('RESULT', { from: agentA, payload: { request_id: 'req_2' } })))).toBe(
      'request_id_mismatch',
    );
  });

  it('CANCEL by the client ends in ERROR (cancelled); by anyone else, or misaddressed, it is refused', () => {
    const cancelled = step(active, unsignedAs('CANCEL', { from: client, to: agentA, id: 'cxl' }), T0 + 7);
    expect(cancelled.ok && cancelled.value).toMatchObject({
      status: 'ERROR',
      ended: { type: 'cancelled', by: client.did, messageId: 'cxl', from: 'ACTIVE', at: T0 + 7 },
    });
    expect(reason(step(active, unsignedAs('CANCEL', { from: agentA })))).toBe('not_the_client');
    expect(reason(step(active, unsignedAs('CANCEL', { from: client, to: agentB })))).toBe('recipient_mismatch');
    expect(reason(step(active, unsignedAs('CANCEL', { from: client, payload: { request_id: 'req_2' } })))).toBe(
      'request_id_mismatch',
    );
  });

  it('ERROR from either party ends the thread; from a non-accepted offerer it is not_a_party', () => {
    expect(reason(step(active, unsignedAs('ERROR', { from: agentA, to: client })))).toBe('ok:ERROR');
    expect(reason(step(active, unsignedAs('ERROR', { from: client, to: agentA })))).toBe('ok:ERROR');
    expect(reason(step(active, unsignedAs('ERROR', { from: agentB })))).toBe('not_a_party');
    expect(reason(step(active, unsignedAs('ERROR', { from: agentA, to: agentB })))).toBe('recipient_mismatch');
  });
});

describe('terminal states', () => {
  it('COMPLETED and ERROR take nothing more (thread_closed)', () => {
    const completed = run(request, offerA, acceptA, resultA);
    const failed = run(request, unsignedAs('ERROR', { from: client }));
    for (const state of [completed, failed]) {
      for (const envelope of [
        request,
        offerA,
        acceptA,
        resultA,
        unsignedAs('ERROR', { from: client }),
        unsignedAs('CANCEL', { from: client }),
      ]) {
        const result = step(state, envelope);
        expect(reason(result)).toBe('thread_closed');
        expect(!result.ok && result.error.details.status).toBe(state.status);
      }
    }
  });
});

describe('tick events', () => {
  it('go through transition as well', () => {
    const state = run(request);
    const timeouts = { noOfferMs: 10, noAcceptMs: 10, noResultMs: 10 };
    expect(transition(state, { type: 'tick', now: T0 + 5, timeouts })).toEqual({ ok: true, value: state });
    expect(transition(state, { type: 'tick', now: T0 + 11, timeouts })).toMatchObject({
      ok: true,
      value: { status: 'ERROR', ended: { phase: 'no_offer' } },
    });
    expect(transition(state, { type: 'tick', now: T0 + 1 })).toEqual({ ok: true, value: state });
  });
});

describe('defensive checks', () => {
  it('throws on events and message types outside the unions', () => {
    expect(() =>
      transition(openThread('thread_1'), { type: 'nudge' } as unknown as Parameters<typeof transition>[1]),
    ).toThrow(/Unhandled thread event/);
    const odd = { ...offerA, type: 'PING' } as unknown as Envelope;
    expect(() => step(run(request), odd)).toThrow(/Unhandled message type/);
  });
});
