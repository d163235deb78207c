import { describe, expect, it } from 'vitest';
import { unwrap } from '@shared/errors';
import { signAgreement } from '@shared/negotiation/agreement';
import { cosignAgreement } from '@shared/negotiation/cosign';
import type { NegotiationState } from '@shared/negotiation/state';
import {
  acceptanceDoc,
  alice,
  bob,
  ctx,
  limits,
  opened,
  proposalDoc,
  T0,
} from '@shared/negotiation/test-support/fixtures';
import { transition } from '@shared/negotiation/transition';
import { verifyHistory } from './verify-history';

const propose = (s: NegotiationState, from = alice, now = T0) =>
  unwrap(transition(s, { type: 'propose', document: proposalDoc(s, from) }, ctx(now)));

function cosigned(): NegotiationState {
  const s2 = propose(propose(opened()), bob, T0 + 1000);
  const acc = unwrap(
    transition(s2, { type: 'accept', document: acceptanceDoc(s2, alice, {}, T0 + 2000) }, ctx(T0 + 2000)),
  );
  return unwrap(
    cosignAgreement(acc, { by: bob.did, signature: signAgreement(acc.agreement!, bob.secretKey) }, T0 + 3000),
  );
}

const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('verifyHistory (in the browser, bulk Ed25519)', () => {
  it('verifies every document, replays the history and recomputes the agreement', async () => {
    const s = cosigned();
    const v = await verifyHistory({ history: wire(s.history), agreement: wire(s.agreement), limits });
    expect(v.documents.map((d) => d.status)).toEqual(['verified', 'verified', 'verified', 'verified', 'verified']);
    expect(v.replay.ok).toBe(true);
    expect(v.agreement).toMatchObject({
      ok: true,
      verdict: { complete: true, agreement_hash: s.agreement!.agreement_hash },
    });
  });

  it('marks exactly the tampered document as not verified and names it as the first item that does not replay', async () => {
    const history = wire(cosigned().history) as Array<{ document?: { terms?: Record<string, unknown> } }>;
    history[2]!.document!.terms!['price_per_call_eur'] = '0.0001';
    const v = await verifyHistory({ history, agreement: null, limits });
    expect(v.documents.map((d) => d.status)).toEqual([
      'verified',
      'verified',
      'not-verified',
      'verified',
      'not-verified',
    ]);
    expect(v.replay).toMatchObject({ ok: false, index: 2, code: 'SIGNATURE_INVALID' });
  });

  it('reports a co-signature by the wrong key and an agreement whose hash was edited', async () => {
    const s = cosigned();
    const history = wire(s.history) as Array<Record<string, unknown>>;
    history[4] = { ...history[4], signature: signAgreement(s.agreement!, alice.secretKey) };
    const agreement = wire(s.agreement!) as unknown as Record<string, unknown>;
    const v = await verifyHistory({
      history,
      agreement: { ...agreement, effective_until: '2030-01-01T00:00:00.000Z' },
      limits,
    });
    expect(v.documents[4]).toMatchObject({ status: 'not-verified', signer: bob.did });
    expect(v.agreement).toMatchObject({ ok: false, code: 'AGREEMENT_HASH_MISMATCH' });
  });
});
