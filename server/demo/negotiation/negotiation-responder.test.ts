// The demo agents answering negotiations an outsider opens with them, against the real app, the
// real negotiation service and a real SQLite store (the server's `watch` is the service's save
// notifications): counter once, then accept within limits (the outsider co-signs) or reject with
// the reason; co-sign when the outsider accepts their counter; leave demo-to-demo ones alone.
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAgreement } from '@shared/negotiation/agreement';
import type { NegotiationState } from '@shared/negotiation/state';
import { negotiationApp } from '../../test-support/negotiation-app';
import { negotiationIdentity } from '../demo-identity';
import { NEGOTIATION_PACES, startNegotiationDemo, type NegotiationDemoHandle } from './negotiation-demo';

const SEED = 11;
const running: { h: ReturnType<typeof negotiationApp>; demo: NegotiationDemoHandle }[] = [];
afterEach(async () => {
  for (const { h, demo } of running.splice(0)) {
    await demo.stop();
    await h.temp.dispose();
  }
});

function setup() {
  const h = negotiationApp();
  const demo = startNegotiationDemo({
    fetch: (input, init) => h.app.request(input, init),
    baseUrl: '',
    seed: SEED,
    now: () => h.clock.now(),
    pace: NEGOTIATION_PACES.fast,
    sleep: async (ms) => h.clock.advance(ms),
    alreadyRan: async () => true, // no scripted scenarios: only answers
    watch: (listener) => h.service.onSaved((record) => listener(record.id, record.state.parties)),
  });
  running.push({ h, demo });
  const seller = negotiationIdentity(SEED, 'seller', 'Acme Weather API').did;
  const terms = { action: 'weather.forecast.detailed', calls_per_month: 120000, currency: 'EUR' };
  /** The outsider's move, then the agent's answer once it has settled. */
  const move = async (id: string, step: () => Promise<unknown>): Promise<NegotiationState> => {
    await step();
    for (let i = 0; i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const state = await h.buyer.state(id);
      if (state.history.length > 0 && state.history.at(-1)!.type !== 'open') {
        const last = state.history.at(-1)!;
        const by =
          last.type === 'propose'
            ? last.document.from
            : last.type === 'cosign'
              ? last.by
              : last.type === 'accept' || last.type === 'reject'
                ? last.document.by
                : undefined;
        if (by === seller) return state;
      }
    }
    throw new Error('the agent did not answer');
  };
  return { h, demo, seller, terms, move };
}

describe('demo agents answer negotiations opened with them', () => {
  it('counter once, then accept a price within the floor; the outsider co-signs and the agreement is complete', async () => {
    const { h, seller, terms, move } = setup();
    const id = await h.buyer.open(seller, { category: 'pricing', mine: 'public', theirs: 'public' });
    const countered = await move(id, () => h.buyer.propose(id, { ...terms, price_per_call_eur: '0.0030' }, 600_000));
    expect(countered.history.at(-1)).toMatchObject({
      type: 'propose',
      document: { from: seller, round: 2, terms: { ...terms, price_per_call_eur: '0.0052' } },
    });
    const accepted = await move(id, () => h.buyer.propose(id, { ...terms, price_per_call_eur: '0.0045' }, 600_000));
    expect(accepted.status).toBe('ACCEPTED');
    expect(Object.keys(accepted.agreement!.signatures)).toEqual([seller]);
    await h.buyer.cosign(id);
    const done = await h.buyer.state(id);
    const verdict = verifyAgreement(done.agreement);
    expect(verdict.ok && verdict.value.complete).toBe(true);
    expect(done.agreement!.terms).toMatchObject({ price_per_call_eur: '0.0045' });
  });

  it('reject a second offer below the floor, saying which term and which limit', async () => {
    const { h, seller, terms, move } = setup();
    const id = await h.buyer.open(seller, { category: 'pricing', mine: 'public', theirs: 'public' });
    await move(id, () => h.buyer.propose(id, { ...terms, price_per_call_eur: '0.0030' }, 600_000));
    const rejected = await move(id, () => h.buyer.propose(id, { ...terms, price_per_call_eur: '0.0040' }, 600_000));
    expect(rejected.status).toBe('REJECTED');
    expect(rejected.history.at(-1)).toMatchObject({
      type: 'reject',
      document: { by: seller, reason: 'The price per call (EUR) of 0.0040 is below the least I take, 0.0042.' },
    });
  });

  it('co-sign when the outsider accepts their counter, and take an offer that meets the ask at once', async () => {
    const { h, seller, terms, move } = setup();
    const id = await h.buyer.open(seller, { category: 'pricing', mine: 'public', theirs: 'public' });
    await move(id, () => h.buyer.propose(id, { ...terms }, 600_000)); // no price: the counter names one
    const cosigned = await move(id, () => h.buyer.accept(id));
    expect(cosigned.status).toBe('ACCEPTED');
    expect(Object.keys(cosigned.agreement!.signatures).sort()).toEqual([h.buyer.did, seller].sort());
    expect(cosigned.agreement!.terms).toMatchObject({ price_per_call_eur: '0.0052' });

    const other = await h.buyer.open(seller, { category: 'pricing', mine: 'public', theirs: 'public' });
    const taken = await move(other, () => h.buyer.propose(other, { ...terms, price_per_call_eur: '0.0060' }, 600_000));
    expect(taken.status).toBe('ACCEPTED');
  });

  it('leave a negotiation between two demo agents to its script', async () => {
    const { h, demo } = setup();
    const { NegotiationParty, seededBytes } = await import('@agents/negotiation/negotiation-client');
    const { mulberry32 } = await import('../prng');
    const buyer = new NegotiationParty(
      negotiationIdentity(SEED, 'buyer', 'Northwind Procurement'),
      (input, init) => h.app.request(input, init),
      '',
      () => h.clock.now(),
      seededBytes(mulberry32(5)),
    );
    const seller = negotiationIdentity(SEED, 'seller', 'Acme Weather API').did;
    const id = await buyer.open(seller, { category: 'pricing', mine: 'public', theirs: 'public' });
    await buyer.propose(id, { price_per_call_eur: '0.0010' }, 600_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await buyer.state(id)).history.map((i) => i.type)).toEqual(['open', 'propose']);
    expect(demo.parties['Acme Weather API']).toBe(seller);
  });
});
