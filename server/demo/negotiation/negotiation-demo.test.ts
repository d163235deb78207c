// The negotiation demo against the real app and a real SQLite store, its time on a hand-moved
// clock: four scenarios end as the issue asks, the log holds two co-signed agreements and
// verifies, and the same seed replays the same negotiations byte for byte.
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAgreement } from '@shared/negotiation/agreement';
import { verifyChain } from '@shared/negotiation/transparency-log';
import { negotiationApp } from '../../test-support/negotiation-app';
import { NEGOTIATION_PACES, startNegotiationDemo } from './negotiation-demo';

const apps: ReturnType<typeof negotiationApp>[] = [];
afterEach(async () => {
  for (const h of apps.splice(0)) await h.temp.dispose();
});

async function runDemo(seed: number) {
  const h = negotiationApp();
  apps.push(h);
  const demo = startNegotiationDemo({
    fetch: (input, init) => h.app.request(input, init),
    baseUrl: '',
    seed,
    now: () => h.clock.now(),
    pace: NEGOTIATION_PACES.fast,
    sleep: async (ms) => h.clock.advance(ms),
    alreadyRan: async (did) => (await h.temp.store.negotiations.list({ party: did, limit: 1 })).length > 0,
  });
  const outcomes = await demo.finished;
  await h.service.expireDue(); // what the server's sweeper does on its timer
  return { h, outcomes, demo };
}

describe('negotiation demo', () => {
  it('ends in a co-signed pricing agreement, a co-signed scheduling agreement, an expiry and a withdrawal', async () => {
    const { h, outcomes } = await runDemo(2026);
    const status = async (scenario: string) => {
      const id = outcomes.find((o) => o.scenario === scenario)!.negotiationId;
      return (await h.temp.store.negotiations.get(id))!.state;
    };
    const pricing = await status('pricing');
    expect(pricing.status).toBe('ACCEPTED');
    expect(pricing.history.filter((i) => i.type === 'propose')).toHaveLength(4);
    const verdict = verifyAgreement(pricing.agreement);
    expect(verdict.ok && verdict.value.complete).toBe(true);
    const scheduling = await status('scheduling');
    expect(scheduling.status).toBe('ACCEPTED');
    expect(scheduling.agreement?.metadata).toMatchObject({
      confidentiality: 'confidential',
      regulated_obligations: [expect.objectContaining({ profession: 'medical' })],
    });
    expect((await status('expiring')).status).toBe('EXPIRED');
    expect((await status('withdrawn')).status).toBe('WITHDRAWN');

    const log = await h.temp.store.negotiations.logPage(0, 10);
    expect(log.size).toBe(2);
    expect(verifyChain(log.entries).ok).toBe(true);
    for (const entry of log.entries) expect(Object.keys(entry.public.signatures)).toHaveLength(2);
    // §3.7 meets §6: the public pricing deal is logged in full, the confidential one with its terms redacted.
    const byId = (id: string | undefined) =>
      log.entries.find((e) => (e.public.disclosures['/agreement_id'] as { value?: string }).value === id)!;
    expect(byId(pricing.agreement?.agreement_id).public.disclosures['/terms/price_per_call_eur']).toHaveProperty(
      'value',
    );
    expect(byId(scheduling.agreement?.agreement_id).public.disclosures['/terms/patient_ref']).toHaveProperty('digest');
  });

  it('replays the same negotiations from the same seed, and does not repeat itself on a restart', async () => {
    const a = await runDemo(7);
    const b = await runDemo(7);
    const c = await runDemo(8);
    const histories = async (run: typeof a) =>
      Promise.all(
        run.outcomes.map(async (o) =>
          JSON.stringify((await run.h.temp.store.negotiations.get(o.negotiationId))!.state),
        ),
      );
    expect(await histories(a)).toEqual(await histories(b));
    expect(await histories(a)).not.toEqual(await histories(c));
    const again = startNegotiationDemo({
      fetch: (i, init) => a.h.app.request(i, init),
      baseUrl: '',
      seed: 7,
      now: () => a.h.clock.now(),
      alreadyRan: async (did) => (await a.h.temp.store.negotiations.list({ party: did, limit: 1 })).length > 0,
    });
    expect(await again.finished).toEqual([]);
  });
});
