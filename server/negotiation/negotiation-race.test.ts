// §5 "Race Conditions": the first valid acceptance is terminal. Many acceptances, rejections
// and withdrawals, each valid on its own, are fired at once over real HTTP (the server on an
// ephemeral port, global fetch); exactly one is stored and every other gets a coded 409.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { negotiationApp } from '../test-support/negotiation-app';

let server: ServerType | undefined;
let h: ReturnType<typeof negotiationApp>;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await h.temp.dispose();
});

async function listen(): Promise<string> {
  return new Promise((resolve) => {
    server = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port: 0 }, (address: AddressInfo) =>
      resolve(`http://127.0.0.1:${address.port}`),
    );
  });
}

describe('first valid acceptance is terminal, under concurrency over real HTTP', () => {
  it.each([
    ['the SQLite store', 0],
    ['reads held until 10 overlap, so requests interleave between read and compare-and-set', 10],
  ])(
    'of 60 concurrent terminal steps on each of 3 negotiations, exactly one wins; the rest are NEGOTIATION_TERMINAL (%s)',
    async (_name, overlapReads) => {
      h = negotiationApp({ overlapReads });
      const base = await listen();
      const rng = mulberry32(11);
      const party = (key: string) =>
        new NegotiationParty(
          negotiationIdentity(1, key, key),
          (i, init) => fetch(i, init),
          base,
          () => h.clock.now(),
          seededBytes(rng),
        );
      const buyer = party('buyer');
      const seller = party('seller');
      for (let round = 0; round < 3; round++) {
        const id = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
        await buyer.propose(id, { price: 1 }, 600_000);
        const state = await seller.state(id);
        // All valid against the same state: 30 acceptances (each its own salt seed), 15 rejections, 15 withdrawals.
        const bodies: [string, unknown][] = [
          ...Array.from({ length: 30 }, () => ['accept', seller.acceptanceDocument(state)] as [string, unknown]),
          ...Array.from(
            { length: 15 },
            (_, i) => ['reject', seller.rejectionDocument(state, `no ${i}`)] as [string, unknown],
          ),
          ...Array.from(
            { length: 15 },
            (_, i) => ['withdraw', (i % 2 ? buyer : seller).withdrawalDocument(id, `bye ${i}`)] as [string, unknown],
          ),
        ];
        const answers = await Promise.all(
          bodies.map(async ([event, body]) => {
            const res = await fetch(`${base}/oap/negotiation/${id}/${event}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            return { status: res.status, code: ((await res.json()) as { code?: string }).code ?? 'OK' };
          }),
        );
        const winners = answers.filter((a) => a.status === 200);
        expect(winners).toHaveLength(1);
        expect(answers.filter((a) => a.status !== 200)).toEqual(
          Array.from({ length: 59 }, () => ({ status: 409, code: 'NEGOTIATION_TERMINAL' })),
        );
        const after = await seller.state(id);
        expect(after.history.map((item) => item.type).slice(0, 2)).toEqual(['open', 'propose']);
        expect(after.history).toHaveLength(3);
      }
      // One log entry per acceptance that won, never more.
      const log = (await (await fetch(`${base}/oap/transparency-log`)).json()) as { size: number };
      const accepted = (await h.temp.store.negotiations.list({ status: 'ACCEPTED', limit: 10 })).length;
      expect(log.size).toBe(accepted);
      if (overlapReads > 0) expect((h.store as { overlapped?: number }).overlapped).toBeGreaterThan(0);
    },
  );

  it('in process: 40 acceptances decided on the same read, one saved, 39 retried onto the terminal state', async () => {
    h = negotiationApp({ overlapReads: 40 });
    const id = await h.buyer.open(h.seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
    await h.buyer.propose(id, { price: 1 }, 600_000);
    const state = await h.seller.state(id);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => h.service.apply(id, 'accept', h.seller.acceptanceDocument(state))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.error.code))).toEqual(
      Array.from({ length: 39 }, () => 'NEGOTIATION_TERMINAL'),
    );
    expect((await h.temp.store.negotiations.logPage(0, 10)).size).toBe(1);
    expect((h.store as { overlapped?: number }).overlapped).toBeGreaterThanOrEqual(40);
  });
});
