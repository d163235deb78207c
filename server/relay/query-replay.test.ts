// A signed OSNAP query is answered once (decisions-agora.md §39): its message id is remembered per
// signer for the whole window its ts is accepted in, so a copy cannot fetch the private entries
// its signer was allowed to see.
import { afterEach, describe, expect, it } from 'vitest';
import { DIRECTORY_REGISTER_INTENT } from '@shared/agora/directory-registration';
import { T0, agentB, client, signed, stranger, type Party } from '@shared/agora/test-support/fixtures';
import { relayApp, type RelayApp } from '../test-support/relay-app';
import { QueryReplayGuard } from './query-replay-guard';

let r: RelayApp;
afterEach(async () => {
  r.services.feed.close();
  await r.temp.dispose();
});

const query = (who: Party, id?: string, ts = T0) =>
  signed('REQUEST', {
    from: who,
    ts,
    thread: 'q',
    ...(id === undefined ? {} : { id }),
    payload: {
      intent: 'osnap.agents_query',
      params: {
        sender_agent_id: who.did,
        receiver_agent_id: 'directory',
        message_type: 'agents_query',
        metadata: { timestamp: new Date(ts).toISOString() },
        payload: { scope: 'private' },
      },
    } as never,
  });

const answer = async (res: Response) =>
  (await res.json()) as { ok: boolean; message?: { payload: { agent_id: string }[] }; details?: { reason: string } };

describe('POST /agents/query replay', () => {
  it('answers a signed agents_query once; the same envelope again is refused and shows nothing', async () => {
    r = relayApp();
    const manifest = {
      id: 'cap_s',
      name: 'Secret',
      intents: [{ id: 'a.b', name: 'a.b', input_schema: {} }],
      pricing: { model: 'free' },
      auth: { methods: ['ed25519'], public_key: agentB.did.slice('did:key:'.length) },
    };
    await r.post(
      signed('REQUEST', {
        from: agentB,
        thread: 'directory',
        payload: {
          intent: DIRECTORY_REGISTER_INTENT,
          params: { manifest, scope: 'private', authorized_agents: [client.did] },
        } as never,
      }),
      '/agents',
    );
    const q = query(client);
    const first = await answer(await r.post(q, '/agents/query'));
    expect(first.message?.payload.map((e) => e.agent_id)).toEqual([agentB.did]);
    const replayed = await r.post(q, '/agents/query');
    const body = await answer(replayed);
    expect([replayed.status, body.details?.reason]).toEqual([403, 'query_replayed']);
    expect(JSON.stringify(body)).not.toContain(agentB.did);
    // Four minutes on, still inside the ±5 min window: still refused.
    r.clock.advance(4 * 60_000);
    expect(await answer(await r.post(q, '/agents/query'))).toMatchObject({
      ok: false,
      details: { reason: 'query_replayed' },
    });
    // A fresh query (new id) is answered; the same id signed by someone else is their own query.
    expect((await r.post(query(client, undefined, r.clock.now()), '/agents/query')).status).toBe(200);
    expect((await r.post(query(stranger, q.id, r.clock.now()), '/agents/query')).status).toBe(200);
  });

  it('refuses a query signed before this process started: a restart forgets what its predecessor answered', async () => {
    r = relayApp();
    // The relay's services start at T0 (relayApp's clock): a query stamped earlier may have been answered before.
    const res = await r.post(query(client, undefined, T0 - 1), '/agents/query');
    expect([res.status, (await answer(res)).details?.reason]).toEqual([403, 'query_replayed']);
  });

  it('keeps its memory bounded: when full of live ids it refuses rather than forget one early', () => {
    const guard = new QueryReplayGuard({ startedAt: T0, capacity: 2 });
    expect(guard.admit('did:key:zA', 'm1', T0, T0).ok).toBe(true);
    expect(guard.admit('did:key:zA', 'm2', T0, T0).ok).toBe(true);
    const full = guard.admit('did:key:zA', 'm3', T0, T0);
    expect(full.ok ? 'admitted' : full.error.details.reason).toBe('replay_memory_full');
    // Ten minutes on, both ids are past any ts the ±5 min window accepts: forgotten, room again.
    expect(guard.admit('did:key:zA', 'm3', T0 + 10 * 60_000 + 1, T0 + 10 * 60_000 + 1).ok).toBe(true);
    expect(guard.size).toBe(1);
  });
});
