// POST /api/demo/negotiation over the real app and a real SQLite store: facilitator only, CSRF
// like every /api route, 503 while no demo agents run, and each call a fresh pricing negotiation
// the demo seller opens with the operator: the operator's counter within the seller's limits is
// accepted and the operator co-signs; one below them is rejected with the reason; earlier
// negotiations stay as they were.
import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import {
  NEGOTIATION_PACES,
  startNegotiationDemo,
  type NegotiationDemoHandle,
} from '../demo/negotiation/negotiation-demo';
import { NegotiationService } from '../negotiation/negotiation-service';
import { DidVerifier } from '../crypto/node-verifier';
import { manualClock } from '../test-support/manual-clock';
import { sessionCookie } from '../test-support/sessions';
import { tempStore, type TempStore } from '../test-support/temp-store';
import type { GuidedDemoSlot } from './demo';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { latestProposal } from '@shared/negotiation/state';

let temp: TempStore | undefined;
let demo: NegotiationDemoHandle | undefined;
afterEach(async () => {
  await demo?.stop();
  await temp?.dispose();
  demo = undefined;
  temp = undefined;
});

function setup() {
  temp = tempStore();
  const clock = manualClock(Date.parse('2026-05-03T10:00:00Z'));
  const negotiations = new NegotiationService({ store: temp.store.negotiations, clock, verifier: new DidVerifier() });
  const slot: GuidedDemoSlot = { port: undefined };
  const app = testApp({ staticDir: '/nonexistent', store: temp.store, clock, negotiations, guidedDemo: slot });
  const store = temp.store;
  const post = (cookie: string | undefined, origin: string | null = 'http://localhost') =>
    app.request('http://localhost/api/demo/negotiation', {
      method: 'POST',
      headers: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
    });
  const startDemo = () => {
    // The agents' own steps wait on real (tiny) timers, as in the server; the clock stands still.
    demo = startNegotiationDemo({
      fetch: (input, init) => app.request(input, init),
      baseUrl: 'http://localhost',
      seed: 7,
      now: () => clock.now(),
      pace: { ...NEGOTIATION_PACES.fast, stepMs: [1, 2] },
      alreadyRan: async () => true, // only guided runs here
      watch: (listener) => negotiations.onSaved((record) => listener(record.id, record.state.parties)),
    });
    slot.port = demo;
  };
  // The operator signs as the browser would (web/features/negotiations/operator-documents.ts).
  const operator = new NegotiationParty(
    negotiationIdentity(1, 'operator', 'Operator'),
    (input, init) => app.request(input, init),
    'http://localhost',
    () => clock.now(),
    seededBytes(mulberry32(3)),
  );
  return { app, store, post, startDemo, clock, operator };
}

async function settled(store: TempStore['store'], id: string) {
  for (let i = 0; i < 400; i++) {
    const record = await store.negotiations.get(id);
    if (
      record?.state.status === 'ACCEPTED' &&
      record.state.agreement &&
      Object.keys(record.state.agreement.signatures).length === 2
    )
      return record;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`negotiation ${id} did not end co-signed`);
}

describe('POST /api/demo/negotiation', () => {
  it('refuses observers, sessions without Origin, and answers 503 while no demo runs', async () => {
    const h = setup();
    expect((await h.post(undefined)).status).toBe(401);
    const observer = await sessionCookie(h.store, 'did:key:z6MkObserver', 'observer', h.clock.now());
    expect((await h.post(observer)).status).toBe(403);
    const facilitator = await sessionCookie(h.store, 'did:key:z6MkFacilitator', 'facilitator', h.clock.now());
    const csrf = await h.post(facilitator, null);
    expect(csrf.status).toBe(403);
    expect(await csrf.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    expect((await h.post(facilitator, 'http://evil.example')).status).toBe(403);
    const off = await h.post(facilitator);
    expect(off.status).toBe(503);
    expect(await off.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('DEMO=1') });
  });

  it('per call, the seller opens a fresh negotiation with the operator, who counters and co-signs', async () => {
    const h = setup();
    h.startDemo();
    const facilitator = await sessionCookie(h.store, h.operator.did, 'facilitator', h.clock.now());
    const first = await h.post(facilitator);
    expect(first.status).toBe(201);
    const a = (await first.json()) as { negotiation_id: string; names: Record<string, string> };
    expect(Object.values(a.names)).toEqual(['Acme Weather API']);
    const opened = await h.operator.state(a.negotiation_id);
    expect(opened.parties).toContain(h.operator.did);
    expect(opened.history.at(-1)).toMatchObject({
      type: 'propose',
      document: { to: h.operator.did, round: 1, terms: { price_per_call_eur: '0.0052' } },
    });
    await h.operator.propose(
      a.negotiation_id,
      { ...latestProposal(opened)!.terms, price_per_call_eur: '0.0047' },
      60_000,
    );
    const accepted = await until(h.operator, a.negotiation_id, (s) => s.status === 'ACCEPTED');
    expect(Object.keys(accepted.agreement!.signatures)).toEqual([Object.keys(a.names)[0]]);
    await h.operator.cosign(a.negotiation_id);
    const doneA = await settled(h.store, a.negotiation_id);
    expect(doneA.state.agreement!.terms).toMatchObject({ price_per_call_eur: '0.0047' });

    const b = (await (await h.post(facilitator)).json()) as { negotiation_id: string };
    expect(b.negotiation_id).not.toBe(a.negotiation_id);
    const offered = await h.operator.state(b.negotiation_id);
    await h.operator.propose(
      b.negotiation_id,
      { ...latestProposal(offered)!.terms, price_per_call_eur: '0.0030' },
      60_000,
    );
    const rejected = await until(h.operator, b.negotiation_id, (s) => s.status === 'REJECTED');
    expect(rejected.history.at(-1)).toMatchObject({
      type: 'reject',
      document: { reason: 'The price per call (EUR) of 0.0030 is below the least I take, 0.0042.' },
    });
    expect(JSON.stringify((await h.store.negotiations.get(a.negotiation_id))!.state)).toBe(JSON.stringify(doneA.state));
  });
});

async function until(
  party: NegotiationParty,
  id: string,
  done: (state: Awaited<ReturnType<NegotiationParty['state']>>) => boolean,
) {
  for (let i = 0; i < 400; i++) {
    const state = await party.state(id);
    if (done(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`negotiation ${id} did not get there`);
}

describe('GET /api/demo/names', () => {
  it('needs a session, is empty without the demo, and names the demo parties by DID for any operator', async () => {
    const h = setup();
    const get = (cookie?: string) =>
      h.app.request('http://localhost/api/demo/names', { headers: cookie ? { cookie } : {} });
    expect((await get()).status).toBe(401);
    const observer = await sessionCookie(h.store, 'did:key:z6MkObserver', 'observer', h.clock.now());
    const off = await get(observer);
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ names: {} });
    h.startDemo();
    const on = (await (await get(observer)).json()) as { names: Record<string, string> };
    const seller = negotiationIdentity(7, 'seller', 'Acme Weather API').did;
    expect(on.names[seller]).toBe('Acme Weather API');
    expect(Object.values(on.names)).toContain('Northwind Procurement');
  });
});
