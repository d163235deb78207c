import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { signAgreement } from './agreement';
import { cosignAgreement } from './cosign';
import { NegotiationErrorCode as Code } from './error-codes';
import { tick } from './expire';
import { replayHistory } from './replay';
import type { NegotiationState } from './state';
import { acceptanceDoc, alice, bob, ctx, HOUR, limits, opened, proposalDoc, T0 } from './test-support/fixtures';
import { transition } from './transition';

const propose = (s: NegotiationState, from = alice, now = T0) =>
  unwrap(transition(s, { type: 'propose', document: proposalDoc(s, from) }, ctx(now)));

function accepted(): NegotiationState {
  const s2 = propose(propose(opened()), bob, T0 + 1000);
  const acc = unwrap(
    transition(s2, { type: 'accept', document: acceptanceDoc(s2, alice, {}, T0 + 2000) }, ctx(T0 + 2000)),
  );
  return unwrap(
    cosignAgreement(acc, { by: bob.did, signature: signAgreement(acc.agreement!, bob.secretKey) }, T0 + 3000),
  );
}
const code = (r: ReturnType<typeof replayHistory>) => (r.ok ? 'ok' : [r.error.code, r.error.details?.['index']]);

describe('replayHistory', () => {
  it('rebuilds exactly the state that produced the history, agreement and co-signature included', () => {
    const s = accepted();
    expect(unwrap(replayHistory(JSON.parse(JSON.stringify(s.history)), limits))).toEqual(s);
    const expired = tick(propose(opened()), T0 + 2 * HOUR);
    expect(unwrap(replayHistory(expired.history, limits))).toEqual(expired);
  });

  it("names the first item that does not replay, with the state machine's code", () => {
    const h = accepted().history;
    expect(code(replayHistory([], limits))).toEqual([Code.INVALID_DOCUMENT, undefined]);
    expect(code(replayHistory(h.slice(1), limits))).toEqual([Code.INVALID_TRANSITION, 0]);
    expect(code(replayHistory([h[0], h[0]], limits))).toEqual([Code.INVALID_TRANSITION, 1]);
    expect(code(replayHistory([h[0], h[2]], limits))).toEqual([Code.STALE_PREVIOUS_PROPOSAL, 1]);
    expect(code(replayHistory([h[0], h[1], h[1]], limits))).toEqual([Code.PROPOSAL_ID_REUSED, 2]);
    expect(code(replayHistory([h[0], { ...h[1], extra: 1 }], limits))).toEqual([Code.INVALID_DOCUMENT, 1]);
    const forged = { ...h[1]!, document: { ...(h[1] as { document: object }).document, terms: { price: 0 } } };
    expect(code(replayHistory([h[0], forged], limits))).toEqual([Code.SIGNATURE_INVALID, 1]);
    expect(code(replayHistory(h, { ...limits, categories: ['sla'] }))).toEqual([Code.CATEGORY_NOT_SUPPORTED, 0]);
  });

  it('refuses an expiry that is early or names another proposal', () => {
    const expired = tick(propose(opened()), T0 + 2 * HOUR);
    const [open, prop, exp] = expired.history as [unknown, unknown, { received_at: string }];
    expect(code(replayHistory([open, prop, { ...exp, proposal_id: 'prp_other' }], limits))).toEqual([
      Code.INVALID_TRANSITION,
      2,
    ]);
    expect(
      code(replayHistory([open, prop, { ...exp, received_at: new Date(T0 + HOUR).toISOString() }], limits)),
    ).toEqual([Code.NOT_EXPIRED, 2]);
  });
});
