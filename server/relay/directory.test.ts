// The directory and /seed through the real app: manifests registered by
// signed envelope, GET /agents (OSNAP) with capability, scope and who asks, signed queries,
// tools_response.
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '@shared/agora/envelope';
import { DIRECTORY_REGISTER_INTENT } from '@shared/agora/directory-registration';
import { T0, agentA, agentB, client, signed, stranger, type Party } from '@shared/agora/test-support/fixtures';
import { relayApp, type RelayApp } from '../test-support/relay-app';
import { sessionCookie } from '../test-support/sessions';

let r: RelayApp;
afterEach(async () => {
  r.services.feed.close();
  await r.temp.dispose();
});

const manifest = (who: Party, name: string, intents: string[]) => ({
  id: `cap_${name}`,
  name,
  intents: intents.map((id) => ({ id, name: id, input_schema: { text: 'string' }, SLA: '5 seconds' })),
  pricing: { model: 'free' },
  auth: { methods: ['ed25519'], public_key: who.did.slice('did:key:'.length) },
});

const registration = (who: Party, params: Record<string, unknown>, ts = T0): Envelope =>
  signed('REQUEST', {
    from: who,
    ts,
    thread: 'directory',
    payload: { intent: DIRECTORY_REGISTER_INTENT, params } as never,
  });

const reason = async (res: Response) => ((await res.json()) as { details?: { reason?: string } }).details?.reason;
const agentIds = async (res: Response) => ((await res.json()) as { agent_id: string }[]).map((e) => e.agent_id);

describe('directory', () => {
  it('registers a manifest by signed envelope and lists it as an OSNAP entry with tools and presence', async () => {
    r = relayApp();
    const res = await r.post(
      registration(agentA, { manifest: manifest(agentA, 'Translator', ['translation.en_zh']) }),
      '/agents',
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, registered: agentA.did });
    const list = (await (await r.get('/agents')).json()) as Record<string, unknown>[];
    expect(list).toEqual([
      expect.objectContaining({
        agent_id: agentA.did,
        agent_name: 'Translator',
        scope: 'public',
        tools: {
          'translation.en_zh': {
            description: 'translation.en_zh',
            kind: 'task',
            request_format: { text: 'string' },
            SLA: '5 seconds',
          },
        },
        presence: { status: 'unknown', last_seen_at: null, sources: [] },
        manifest: expect.objectContaining({ id: 'cap_Translator' }),
      }),
    ]);
    // A signed event from the agent makes it online through the relay.
    await r.post(signed('REQUEST', { from: agentA, thread: 'th_presence' }));
    const after = (await (await r.get('/agents')).json()) as { presence: { status: string; sources: string[] } }[];
    expect(after[0]?.presence).toMatchObject({ status: 'online', sources: ['relay'] });
  });

  it('refuses a manifest whose key is not the signer, an invalid one, and an older registration; stores none', async () => {
    r = relayApp();
    expect(
      await reason(await r.post(registration(agentA, { manifest: manifest(agentB, 'Impostor', ['x.y']) }), '/agents')),
    ).toBe('manifest_key_mismatch');
    expect(await reason(await r.post(registration(agentA, { manifest: { name: 'no intents' } }), '/agents'))).toBe(
      'manifest_invalid',
    );
    await r.post(registration(agentA, { manifest: manifest(agentA, 'New', ['a.b']) }, T0), '/agents');
    const older = await r.post(
      registration(agentA, { manifest: manifest(agentA, 'Old', ['a.b']) }, T0 - 1000),
      '/agents',
    );
    expect([older.status, await reason(older)]).toEqual([409, 'manifest_stale']);
    const entries = (await (await r.get('/agents')).json()) as { agent_name: string }[];
    expect(entries.map((e) => e.agent_name)).toEqual(['New']);
    expect(await r.services.relay.store.headSeq()).toBe(1);
  });

  it('also takes a registration posted to /events, without relaying it or opening a thread', async () => {
    r = relayApp();
    const res = await r.post(registration(agentB, { manifest: manifest(agentB, 'Weather', ['weather.current']) }));
    expect(await res.json()).toMatchObject({ ok: true, registered: agentB.did });
    expect((await (await r.get('/events?since=cur_0&timeout=0')).json()) as unknown).toMatchObject({ events: [] });
    expect(await r.services.relay.store.getThread('directory')).toBeUndefined();
  });

  it('shows an aor_agent_id as an unverified claim with no AOR presence, unless the console linked that AOR agent to this DID', async () => {
    const presence = {
      agentStatus: (id: string) => (id === 'agent.victim' ? { status: 'online' as const, lastSeenAt: T0 } : undefined),
    };
    r = relayApp({ services: { presence } });
    // agentA claims another agent's AOR identity to borrow its heartbeats.
    await r.post(
      registration(agentA, { manifest: manifest(agentA, 'Impostor', ['a.b']), aor_agent_id: 'agent.victim' }),
      '/agents',
    );
    const [claimed] = (await (await r.get('/agents')).json()) as Record<string, unknown>[];
    expect(claimed).toMatchObject({
      presence: { status: 'unknown', sources: [] },
      aor_agent: { agent_id: 'agent.victim', verified: false },
    });
    r.services.feed.close();
    await r.temp.dispose();

    // The console bound agent.victim's credential to agentA: the same agent, with its heartbeats.
    r = relayApp({
      services: { presence, aorLinks: { linkedDid: (id) => (id === 'agent.victim' ? agentA.did : undefined) } },
    });
    await r.post(
      registration(agentA, { manifest: manifest(agentA, 'Linked', ['a.b']), aor_agent_id: 'agent.victim' }),
      '/agents',
    );
    await r.post(
      registration(agentB, { manifest: manifest(agentB, 'Other', ['a.b']), aor_agent_id: 'agent.victim' }),
      '/agents',
    );
    const entries = (await (await r.get('/agents')).json()) as {
      agent_id: string;
      presence: { sources: string[] };
      aor_agent: unknown;
    }[];
    expect(entries.map((e) => [e.agent_id, e.presence.sources, e.aor_agent])).toEqual([
      [agentA.did, ['aor'], { agent_id: 'agent.victim', verified: true }],
      [agentB.did, [], { agent_id: 'agent.victim', verified: false }],
    ]);
  });

  it('filters by capability (dotted namespace) and scope; shows a private agent only to DIDs it authorizes', async () => {
    r = relayApp();
    await r.post(registration(agentA, { manifest: manifest(agentA, 'Translator', ['translation.en_zh']) }), '/agents');
    await r.post(
      registration(agentB, {
        manifest: manifest(agentB, 'Secret', ['translation.en_fr']),
        scope: 'private',
        authorized_agents: [client.did],
      }),
      '/agents',
    );
    expect(await agentIds(await r.get('/agents'))).toEqual([agentA.did]);
    expect(await agentIds(await r.get('/agents?capability=translation'))).toEqual([agentA.did]);
    expect(await agentIds(await r.get('/agents?capability=weather'))).toEqual([]);
    expect((await r.get('/agents?scope=secret')).status).toBe(400);

    // The operator's session identifies the caller.
    const allowed = await sessionCookie(r.temp.store, client.did, 'observer', r.clock.now());
    const entries = (await (await r.get('/agents?scope=private', { cookie: allowed })).json()) as {
      agent_id: string;
      authorized_agents: string[];
    }[];
    expect(entries).toEqual([expect.objectContaining({ agent_id: agentB.did, authorized_agents: [client.did] })]);
    const other = await sessionCookie(r.temp.store, stranger.did, 'facilitator', r.clock.now());
    expect(await agentIds(await r.get('/agents?scope=private', { cookie: other }))).toEqual([]);
    // A query parameter naming a caller changes nothing.
    expect(await agentIds(await r.get(`/agents?scope=private&caller=${encodeURIComponent(client.did)}`))).toEqual([]);

    // So does a signature: a signed agents_query from the authorized DID, and from a stranger.
    const query = (who: Party, type: 'agents_query' | 'tools_query', receiver: string) =>
      signed('REQUEST', {
        from: who,
        thread: 'q',
        payload: {
          intent: `osnap.${type}`,
          params: {
            sender_agent_id: who.did,
            receiver_agent_id: receiver,
            message_type: type,
            metadata: { timestamp: new Date(T0).toISOString() },
            ...(type === 'agents_query' ? { payload: { scope: 'private' } } : {}),
          },
        } as never,
      });
    const signedAnswer = (await (await r.post(query(client, 'agents_query', 'directory'), '/agents/query')).json()) as {
      message: { message_type: string; payload: { agent_id: string }[] };
    };
    expect(signedAnswer.message.message_type).toBe('agents_response');
    expect(signedAnswer.message.payload.map((e) => e.agent_id)).toEqual([agentB.did]);
    const strangerAnswer = (await (
      await r.post(query(stranger, 'agents_query', 'directory'), '/agents/query')
    ).json()) as { message: { payload: unknown[] } };
    expect(strangerAnswer.message.payload).toEqual([]);

    // tools_query answered with tools_response; a private agent is unknown to a stranger.
    const tools = (await (await r.post(query(client, 'tools_query', agentB.did), '/agents/query')).json()) as {
      message: Record<string, unknown>;
    };
    expect(tools.message).toMatchObject({
      sender_agent_id: agentB.did,
      receiver_agent_id: client.did,
      message_type: 'tools_response',
      payload: {
        information_tools: [],
        task_tools: [
          {
            name: 'translation.en_fr',
            description: 'translation.en_fr',
            request_format: { text: 'string' },
            SLA: '5 seconds',
          },
        ],
      },
    });
    expect((await r.post(query(stranger, 'tools_query', agentB.did), '/agents/query')).status).toBe(404);
    expect((await r.get(`/agents/${encodeURIComponent(agentB.did)}/tools`)).status).toBe(404);
    expect((await r.get(`/agents/${encodeURIComponent(agentB.did)}/tools`, { cookie: allowed })).status).toBe(200);
    expect(await (await r.get(`/agents/${encodeURIComponent(agentA.did)}/tools`)).json()).toMatchObject({
      message_type: 'tools_response',
    });

    // The OSNAP sender must be the signer.
    const forged = signed('REQUEST', {
      from: stranger,
      thread: 'q',
      payload: {
        intent: 'osnap.agents_query',
        params: {
          sender_agent_id: client.did,
          receiver_agent_id: 'directory',
          message_type: 'agents_query',
          metadata: { timestamp: new Date(T0).toISOString() },
        },
      } as never,
    });
    const refused = await r.post(forged, '/agents/query');
    expect([refused.status, await reason(refused)]).toEqual([403, 'not_a_party']);
  });
});

describe('POST /seed', () => {
  it('needs a facilitator session, and seeds three complete signed threads (12 events)', async () => {
    r = relayApp();
    expect((await r.post('', '/seed')).status).toBe(401);
    // Same-origin, as the console sends it: a cookie without Origin is a CSRF refusal (decisions-server §28).
    const origin = 'http://localhost';
    expect(
      (
        await r.post('', '/seed', {
          origin,
          cookie: await sessionCookie(r.temp.store, agentA.did, 'observer', r.clock.now()),
        })
      ).status,
    ).toBe(403);
    const res = await r.post('', '/seed', {
      origin,
      cookie: await sessionCookie(r.temp.store, client.did, 'facilitator', r.clock.now()),
    });
    expect(await res.json()).toEqual({ ok: true, count: 12 });
    const threads = await r.services.relay.store.listThreads({ limit: 10 });
    expect(threads.map((t) => t.state.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
  });

  it('with the demo on needs a facilitator session all the same (it writes 12 signed envelopes a call)', async () => {
    r = relayApp({ demo: true });
    expect((await r.post('', '/seed')).status).toBe(401);
    const origin = 'http://localhost';
    expect(
      (
        await r.post('', '/seed', {
          origin,
          cookie: await sessionCookie(r.temp.store, agentA.did, 'observer', r.clock.now()),
        })
      ).status,
    ).toBe(403);
    expect(await r.services.relay.store.headSeq()).toBe(0);
    const res = await r.post('', '/seed', {
      origin,
      cookie: await sessionCookie(r.temp.store, client.did, 'facilitator', r.clock.now()),
    });
    expect(await res.json()).toEqual({ ok: true, count: 12 });
  });
});
