// Directory entries as A2A Agent Cards (decisions-mcp.md §7), read by the A2A SDK's own card
// resolver (@a2a-js/sdk) through the real app: skills from the manifest's capabilities, the relay
// as where the agent is reached, a private entry only for the callers it authorizes.
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '@shared/agora/envelope';
import { DIRECTORY_REGISTER_INTENT } from '@shared/agora/directory-registration';
import { T0, agentA, agentB, signed, type Party } from '@shared/agora/test-support/fixtures';
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
  description: `${name} for the A2A test`,
  intents: intents.map((id) => ({ id, name: id, input_schema: { text: 'string' }, SLA: '5 seconds' })),
  pricing: { model: 'free' },
  auth: { methods: ['ed25519'], public_key: who.did.slice('did:key:'.length) },
});

const register = async (who: Party, params: Record<string, unknown>) => {
  const envelope: Envelope = signed('REQUEST', {
    from: who,
    ts: T0,
    thread: 'directory',
    payload: { intent: DIRECTORY_REGISTER_INTENT, params } as never,
  });
  expect((await r.post(envelope, '/agents')).status).toBe(200);
};

/** The SDK's resolver, fetching through the app as if over the network. */
const resolver = (headers: Record<string, string> = {}) =>
  new DefaultAgentCardResolver({
    fetchImpl: (input, init) =>
      Promise.resolve(
        r.app.request(input instanceof Request ? input.url : input.toString(), {
          ...init,
          headers: { ...(init?.headers as object), ...headers },
        }),
      ),
  });

describe('GET /agents/{did}/agent-card.json', () => {
  it('is read by the A2A SDK as a card: name, description, a skill per capability, the relay as its interface', async () => {
    r = relayApp();
    await register(agentA, { manifest: manifest(agentA, 'Translator', ['translation.en_zh', 'translation.en_fr']) });
    const card = await resolver().resolve('http://localhost', `/agents/${agentA.did}/agent-card.json`);
    expect(card.name).toBe('Translator');
    expect(card.skills.map((s) => s.id)).toEqual(['translation.en_fr', 'translation.en_zh']);
    expect(card.skills[0]).toMatchObject({ name: 'translation.en_fr', tags: ['translation', 'task'] });
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: 'http://localhost/events', protocolBinding: 'AGORA' }),
    ]);
  });

  it('answers 404 for an unknown agent, and for a private one to a caller it does not authorize', async () => {
    r = relayApp();
    await register(agentB, {
      manifest: manifest(agentB, 'Secret', ['secret.thing']),
      scope: 'private',
      authorized_agents: [agentA.did],
    });
    const unknown = await r.get(`/agents/${agentA.did}/agent-card.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    await expect(resolver().resolve('http://localhost', `/agents/${agentB.did}/agent-card.json`)).rejects.toThrow(
      /404/,
    );
    const allowed = await sessionCookie(r.temp.store, agentA.did, 'observer', r.clock.now());
    const card = await resolver({ cookie: allowed }).resolve(
      'http://localhost',
      `/agents/${agentB.did}/agent-card.json`,
    );
    expect(card.name).toBe('Secret');
  });
});
