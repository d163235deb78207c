// The local ledger over HTTP (OACoP §6.2, docs/decisions-oacop.md): a DID burns only what it
// holds, so a burn costs something; a refused burn changes nothing; and burns are rate limited
// per client address and per signer DID.
import { afterEach, describe, expect, it } from 'vitest';
import { AgoraClient } from '@agents/agora/agora-client';
import { demoIdentity } from '../demo/demo-identity';
import { DEMO_CALENDARS } from '../demo/oacop/demo-calendars';
import { oacopDemoIdentity, startOacopDemo } from '../demo/oacop/oacop-demo';
import { relayApp, type RelayApp } from '../test-support/relay-app';

let r: RelayApp;
afterEach(async () => r.temp.dispose());

let n = 0;
const client = (key: string) =>
  new AgoraClient(
    demoIdentity(1, `ledger-${key}`, key),
    (i, init) => r.app.request(i, init),
    '',
    () => r.clock.now(),
    () => `${key}-${++n}`,
  );
const burn = (who: AgoraClient, amount: string, headers: Record<string, string> = {}) =>
  r.post(
    who.sign('REQUEST', { request_id: `burn_${++n}`, intent: 'oapp.burn', params: { amount } } as never, `burn_${n}`),
    '/api/ledger/burns',
    headers,
  );

describe('POST /api/ledger/burns', () => {
  it('refuses a burn beyond the balance (coded, nothing stored), so 300 huge burns from one DID cost what it holds', async () => {
    r = relayApp();
    const spammer = client('spammer');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const res = await burn(spammer, '999999999999999999');
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (i === 0) expect(await res.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    }
    expect(statuses.get(201)).toBeUndefined();
    expect(await r.temp.store.oacop.balanceOf(spammer.identity.did)).toBe('0');
  });

  it('burns within the balance, answers the balance, and refuses the next one beyond it', async () => {
    r = relayApp();
    const payer = client('payer');
    await r.temp.store.oacop.credit(payer.identity.did, '3', r.clock.now());
    const first = await burn(payer, '2');
    expect(first.status).toBe(201);
    const txId = ((await first.json()) as { txId: string }).txId;
    expect((await r.get(`/api/ledger/burns/${encodeURIComponent(txId)}`)).status).toBe(200);
    expect(await (await r.get(`/api/ledger/balances/${encodeURIComponent(payer.identity.did)}`)).json()).toEqual({
      did: payer.identity.did,
      balance: '1',
    });
    const second = await burn(payer, '2');
    expect({ status: second.status, code: ((await second.json()) as { code: string }).code }).toEqual({
      status: 402,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(await r.temp.store.oacop.balanceOf(payer.identity.did)).toBe('1');
  });

  it('limits burns per signer DID and per client address (429 with Retry-After)', async () => {
    r = relayApp();
    const rich = client('rich');
    await r.temp.store.oacop.credit(rich.identity.did, '1000000', r.clock.now());
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await burn(rich, '1')).status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    const limited = await burn(rich, '1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another DID from the same (unknown) address still has its own DID budget until the address one runs out.
    const others = Array.from({ length: 10 }, (_, i) => client(`other-${i}`));
    for (const o of others) await r.temp.store.oacop.credit(o.identity.did, '1000', r.clock.now());
    const fromAddress: number[] = [];
    for (let i = 0; i < 400; i++) fromAddress.push((await burn(others[i % 10]!, '1')).status);
    expect(fromAddress).toContain(429);
  });
});

describe('the demo', () => {
  it('credits its seeded agents a fixed amount, topped up (not added) on a restart', async () => {
    r = relayApp();
    const fetch = (input: string, init?: RequestInit) => r.app.request(input, init);
    const options = {
      fetch,
      baseUrl: '',
      seed: 2026,
      now: () => r.clock.now(),
      store: r.temp.store,
      pollSeconds: 1,
      onError: () => undefined,
    };
    const dids = DEMO_CALENDARS.map((profile) => oacopDemoIdentity(2026, profile).did);
    const first = await startOacopDemo(options);
    await first.stop();
    expect(await Promise.all(dids.map((did) => r.temp.store.oacop.balanceOf(did)))).toEqual(dids.map(() => '100'));
    expect(
      await r.temp.store.oacop.recordBurn({
        txId: 'oap:tx:demo-spend',
        burnedBy: dids[0]!,
        amount: '30',
        burnedAt: r.clock.now(),
      }),
    ).toBe('stored');
    r.clock.advance(60_000);
    const second = await startOacopDemo(options);
    await second.stop();
    expect(await Promise.all(dids.map((did) => r.temp.store.oacop.balanceOf(did)))).toEqual(dids.map(() => '100'));
  });
});
