// POST /oap/negotiation/open is rate limited per opening DID (once its signature verifies) and
// per client address: a burst of self-dealing negotiations cannot flood the permanent log.
import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { negotiationApp } from '../test-support/negotiation-app';

let h: ReturnType<typeof negotiationApp>;
afterEach(async () => h.temp.dispose());

describe('opening negotiations', () => {
  it('refuses opens past the per-DID budget with 429 and Retry-After, storing nothing; another DID still opens', async () => {
    h = negotiationApp();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push(
        (
          await h.post(
            '/oap/negotiation/open',
            h.buyer.openDocument(h.seller.did, { category: 'pricing', mine: 'public', theirs: 'public' }),
          )
        ).status,
      );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(201));
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    const refused = h.buyer.openDocument(h.seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
    const res = await h.post('/oap/negotiation/open', refused);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await h.store.get(refused.negotiation_id)).toBeUndefined();
    expect(
      (
        await h.post(
          '/oap/negotiation/open',
          h.seller.openDocument(h.buyer.did, { category: 'pricing', mine: 'public', theirs: 'public' }),
        )
      ).status,
    ).toBe(201);
    // The budget refills with time.
    h.clock.advance(60_000);
    expect(
      (
        await h.post(
          '/oap/negotiation/open',
          h.buyer.openDocument(h.seller.did, { category: 'pricing', mine: 'public', theirs: 'public' }),
        )
      ).status,
    ).toBe(201);
  });

  it('refuses opens past the per-address budget, whoever signs them, before reading the body', async () => {
    h = negotiationApp();
    const app = testApp({
      staticDir: '/nonexistent',
      store: h.temp.store,
      clock: h.clock,
      negotiations: h.service,
      limits: { negotiationOpensPerAddress: { capacity: 3, refillPerSecond: 0.001 } },
    });
    const post = (body: unknown) =>
      app.request('/oap/negotiation/open', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const parties = [h.buyer, h.seller, h.stranger, h.buyer];
    const statuses = [];
    for (const p of parties)
      statuses.push(
        (
          await post(
            p.openDocument(h.seller.did === p.did ? h.buyer.did : h.seller.did, {
              category: 'pricing',
              mine: 'public',
              theirs: 'public',
            }),
          )
        ).status,
      );
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await post('not even json')).status).toBe(429);
  });
});
