import { describe, expect, it } from 'vitest';
import { AcceptPayload, CancelPayload, ErrorPayload, OfferPayload, RequestPayload, ResultPayload } from './payloads';

// The payload examples of Agora v1.0 "Message Types", verbatim.
const examples = {
  REQUEST: {
    request_id: 'req_01jqk7z9',
    intent: 'translation.en_zh',
    title: 'Translate greeting',
    description: 'Translate a simple greeting to Chinese',
    params: { text: 'Hello world', source_lang: 'en', target_lang: 'zh' },
    constraints: { max_cost_usd: 0.01, max_latency_ms: 5000 },
  },
  OFFER: {
    request_id: 'req_01jqk7z9',
    plan: 'Translate using GPT-4 with context preservation',
    price: { amount: 0.005, currency: 'USD' },
    eta_seconds: 2,
    valid_until: '2026-02-02T15:35:00Z',
  },
  ACCEPT: {
    request_id: 'req_01jqk7z9',
    accepted_at: '2026-02-02T15:31:00Z',
    terms: { price_usd: 0.005, deadline: '2026-02-02T15:36:00Z' },
  },
  RESULT: {
    request_id: 'req_01jqk7z9',
    status: 'success',
    output: { translation: '你好，世界', confidence: 0.99 },
    artifacts: [],
    metrics: { latency_ms: 1200, cost_actual: 0.005 },
  },
  ERROR: {
    code: 'INSUFFICIENT_BUDGET',
    message: 'Request budget too low for this intent',
    details: { min_required: 0.01, provided: 0.001 },
  },
};

describe('payload schemas', () => {
  it('accept the spec examples unchanged', () => {
    expect(RequestPayload.parse(examples.REQUEST)).toEqual(examples.REQUEST);
    expect(OfferPayload.parse(examples.OFFER)).toEqual(examples.OFFER);
    expect(AcceptPayload.parse(examples.ACCEPT)).toEqual(examples.ACCEPT);
    expect(ResultPayload.parse(examples.RESULT)).toEqual(examples.RESULT);
    expect(ErrorPayload.parse(examples.ERROR)).toEqual(examples.ERROR);
  });

  it('keep unknown fields, which the signature covers', () => {
    const withExtra = { ...examples.OFFER, vendor_note: { tier: 'gold' } };
    expect(OfferPayload.parse(withExtra)).toEqual(withExtra);
  });

  it('require the fields the protocol relies on', () => {
    const { request_id: _r, ...noRequestId } = examples.REQUEST;
    const { intent: _i, ...noIntent } = examples.REQUEST;
    expect(RequestPayload.safeParse(noRequestId).success).toBe(false);
    expect(RequestPayload.safeParse(noIntent).success).toBe(false);
    expect(OfferPayload.safeParse({ plan: 'x' }).success).toBe(false);
    expect(AcceptPayload.safeParse({}).success).toBe(false);
    expect(ResultPayload.safeParse({ request_id: 'r' }).success).toBe(false);
    expect(ErrorPayload.safeParse({ code: 'TIMEOUT' }).success).toBe(false);
    expect(CancelPayload.safeParse({ reason: 'x' }).success).toBe(false);
  });

  it('type the optional fields when present', () => {
    expect(OfferPayload.safeParse({ ...examples.OFFER, price: { amount: -1, currency: 'USD' } }).success).toBe(false);
    expect(OfferPayload.safeParse({ ...examples.OFFER, valid_until: 'soon' }).success).toBe(false);
    expect(RequestPayload.safeParse({ ...examples.REQUEST, constraints: { max_latency_ms: 1.5 } }).success).toBe(false);
    expect(AcceptPayload.safeParse({ ...examples.ACCEPT, offer_id: 'has space' }).success).toBe(false);
    expect(ErrorPayload.safeParse({ ...examples.ERROR, code: '' }).success).toBe(false);
  });

  it('define CANCEL and the ACCEPT offer_id extension', () => {
    expect(CancelPayload.parse({ request_id: 'req_1' })).toEqual({ request_id: 'req_1' });
    expect(AcceptPayload.parse({ request_id: 'req_1', offer_id: 'msg_offer_1' }).offer_id).toBe('msg_offer_1');
  });
});
