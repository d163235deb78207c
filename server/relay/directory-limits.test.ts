// The directory's unauthenticated writes have budgets (decisions-agora.md §38): registrations per
// client address (counted before the body is read) and per verified signer DID, on POST /agents
// and on a registration posted to /events alike; signed queries share the relay's envelope
// budgets. A hand-moved clock refills the buckets; nothing sleeps.
import { afterEach, describe, expect, it } from 'vitest';
import { DIRECTORY_REGISTER_INTENT } from '@shared/agora/directory-registration';
import type { Envelope } from '@shared/agora/envelope';
import { T0, agentA, client, party, signed, type Party } from '@shared/agora/test-support/fixtures';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { UNLIMITED_HTTP_LIMITS } from '../http/limits';
import { relayApp, type RelayApp } from '../test-support/relay-app';

let r: RelayApp;
afterEach(async () => {
  r.services.feed.close();
  await r.temp.dispose();
});

const perMinute = (n: number) => ({ capacity: n, refillPerSecond: n / 60 });

/** Parties beyond the fixtures' 256: a two-byte seed. */
function manyParty(n: number): Party {
  const seed = new Uint8Array(32).fill(7);
  seed[0] = n & 0xff;
  seed[1] = (n >> 8) & 0xff;
  const pair = keyPairFromSeed(seed);
  return { ...pair, did: encodeDidKey(pair.publicKey) };
}

const registration = (who: Party, ts = T0): Envelope =>
  signed('REQUEST', {
    from: who,
    ts,
    thread: 'directory',
    payload: {
      intent: DIRECTORY_REGISTER_INTENT,
      params: {
        manifest: {
          id: 'cap_limits',
          name: 'Limits',
          intents: [{ id: 'a.b', name: 'a.b', input_schema: {} }],
          pricing: { model: 'free' },
          auth: { methods: ['ed25519'], public_key: who.did.slice('did:key:'.length) },
        },
      },
    } as never,
  });

const agentsQuery = (who: Party) =>
  signed('REQUEST', {
    from: who,
    thread: 'q',
    payload: {
      intent: 'osnap.agents_query',
      params: {
        sender_agent_id: who.did,
        receiver_agent_id: 'directory',
        message_type: 'agents_query',
        metadata: { timestamp: new Date(T0).toISOString() },
      },
    } as never,
  });

const code = async (res: Response) => ((await res.json()) as { code?: string }).code;

describe('directory write budgets', () => {
  it('with the defaults, one address cannot fill the directory: the measured 300 registrations in a burst are cut', async () => {
    r = relayApp();
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++)
      statuses.push((await r.post(registration(manyParty(i)), '/agents', {}, '10.0.0.1')).status);
    const stored = statuses.filter((s) => s === 200).length;
    expect(stored).toBeGreaterThanOrEqual(60); // the e2e directory journey registers 60 at once
    expect(stored).toBeLessThan(300);
    expect(statuses.slice(stored).every((s) => s === 429)).toBe(true);
    expect(((await (await r.get('/agents')).json()) as unknown[]).length).toBe(stored);
    // Another address is not affected.
    expect((await r.post(registration(manyParty(1000)), '/agents', {}, '10.0.0.2')).status).toBe(200);
  });

  it('limits registrations per client address before reading the body, on /agents and /events alike', async () => {
    r = relayApp({ limits: { ...UNLIMITED_HTTP_LIMITS, directoryPerAddress: perMinute(2) } });
    expect((await r.post(registration(party(10)), '/agents', {}, '10.0.0.1')).status).toBe(200);
    expect((await r.post(registration(party(11)), '/events', {}, '10.0.0.1')).status).toBe(200);
    const refused = await r.post('{not json', '/agents', {}, '10.0.0.1');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '30']);
    expect(await refused.json()).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(await code(await r.post(registration(party(12)), '/events', {}, '10.0.0.1'))).toBe('RATE_LIMITED');
    // Events (not registrations) from that address still flow: they have their own budget.
    expect(
      (await r.post(signed('REQUEST', { from: client, thread: 'th_limits' }), '/events', {}, '10.0.0.1')).status,
    ).toBe(200);
    expect((await r.post(registration(party(13)), '/agents', {}, '10.0.0.2')).status).toBe(200);
    r.clock.advance(30_000);
    expect((await r.post(registration(party(14)), '/agents', {}, '10.0.0.1')).status).toBe(200);
  });

  it('limits registrations per signer DID across addresses; a forged one in its name spends nothing', async () => {
    r = relayApp({ limits: { ...UNLIMITED_HTTP_LIMITS, directoryPerDid: perMinute(2) } });
    for (let i = 0; i < 4; i++) {
      const forged = { ...registration(party(20)), sender: { id: agentA.did } };
      expect((await r.post(forged, '/agents', {}, `10.8.0.${i}`)).status).toBeGreaterThanOrEqual(400);
    }
    expect((await r.post(registration(agentA, T0), '/agents', {}, '10.0.0.1')).status).toBe(200);
    expect((await r.post(registration(agentA, T0 + 1), '/events', {}, '10.0.0.2')).status).toBe(200);
    const head = await r.services.relay.store.headSeq();
    const refused = await r.post(registration(agentA, T0 + 2), '/agents', {}, '10.0.0.3');
    expect([refused.status, await code(refused)]).toEqual([429, 'RATE_LIMITED']);
    expect(await r.services.relay.store.headSeq()).toBe(head);
    expect((await r.post(registration(party(21)), '/agents', {}, '10.0.0.3')).status).toBe(200);
    r.clock.advance(30_000);
    expect((await r.post(registration(agentA, T0 + 3), '/agents', {}, '10.0.0.1')).status).toBe(200);
  });

  it("counts signed directory queries against the relay's envelope budgets, per address and per signer", async () => {
    r = relayApp({ limits: { ...UNLIMITED_HTTP_LIMITS, relayPerAddress: perMinute(2) } });
    expect((await r.post(agentsQuery(client), '/agents/query', {}, '10.0.0.1')).status).toBe(200);
    expect((await r.post(signed('REQUEST', { from: client, thread: 'th_q' }), '/events', {}, '10.0.0.1')).status).toBe(
      200,
    );
    expect(await code(await r.post(agentsQuery(client), '/agents/query', {}, '10.0.0.1'))).toBe('RATE_LIMITED');
    r.services.feed.close();
    await r.temp.dispose();
    r = relayApp({ limits: { ...UNLIMITED_HTTP_LIMITS, relayPerDid: perMinute(1) } });
    expect((await r.post(agentsQuery(client), '/agents/query', {}, '10.0.0.1')).status).toBe(200);
    expect(await code(await r.post(agentsQuery(client), '/agents/query', {}, '10.0.0.2'))).toBe('RATE_LIMITED');
    expect((await r.post(agentsQuery(agentA), '/agents/query', {}, '10.0.0.2')).status).toBe(200);
  });
});
