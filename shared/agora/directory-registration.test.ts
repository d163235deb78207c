import { describe, expect, it } from 'vitest';
import { DIRECTORY_REGISTER_INTENT, directoryEntry, isRegistration, readRegistration } from './directory-registration';
import { T0, agentA, agentB, client, unsignedAs } from './test-support/fixtures';

const manifest = (publicKey: string) => ({
  id: 'cap_x',
  name: 'Translator',
  description: 'Translates',
  intents: [
    { id: 'translation.en_zh', name: 'English to Chinese', input_schema: { text: 'string' }, SLA: '2 seconds' },
    { id: 'translation.en_fr' },
  ],
  pricing: { model: 'free' },
  auth: { methods: ['ed25519'], public_key: publicKey },
});
const envelope = (params: unknown, from = agentA) =>
  unsignedAs('REQUEST', { from, payload: { intent: DIRECTORY_REGISTER_INTENT, params } as never });

describe('directory registration', () => {
  it('reads a registration whose manifest key is the signer, in either key form, public by default', () => {
    for (const key of [agentA.did, agentA.did.slice('did:key:'.length)]) {
      const read = readRegistration(envelope({ manifest: manifest(key) }));
      expect(read.ok && read.value).toMatchObject({ did: agentA.did, scope: 'public', registeredAt: T0 });
    }
  });

  it('refuses another key, another intent or type, and invalid params, each with its reason', () => {
    const reason = (r: ReturnType<typeof readRegistration>) => (r.ok ? 'ok' : r.error.details.reason);
    expect(reason(readRegistration(envelope({ manifest: manifest(agentB.did) })))).toBe('manifest_key_mismatch');
    expect(reason(readRegistration(unsignedAs('REQUEST', { from: agentA })))).toBe('manifest_invalid');
    expect(reason(readRegistration(unsignedAs('OFFER', { from: agentA })))).toBe('manifest_invalid');
    expect(reason(readRegistration(envelope({ manifest: { ...manifest(agentA.did), intents: [] } })))).toBe(
      'manifest_invalid',
    );
    expect(reason(readRegistration(envelope({ manifest: manifest(agentA.did), scope: 'secret' })))).toBe(
      'manifest_invalid',
    );
    expect(
      reason(readRegistration(envelope({ manifest: manifest(agentA.did), authorized_agents: ['agent-123'] }))),
    ).toBe('manifest_invalid');
    expect(isRegistration(unsignedAs('REQUEST', { from: client }))).toBe(false);
  });

  it('builds the OSNAP entry: intents as task tools with request_format and SLA, private entries with their list', () => {
    const read = readRegistration(
      envelope({ manifest: manifest(agentA.did), scope: 'private', authorized_agents: [client.did] }),
    );
    if (!read.ok) throw new Error('expected a registration');
    expect(directoryEntry(read.value, 'https://agent.example.com')).toEqual({
      agent_id: agentA.did,
      agent_name: 'Translator',
      agent_description: 'Translates',
      agent_endpoint: 'https://agent.example.com',
      tools: {
        'translation.en_zh': {
          description: 'English to Chinese',
          kind: 'task',
          request_format: { text: 'string' },
          SLA: '2 seconds',
        },
        'translation.en_fr': { description: 'translation.en_fr', kind: 'task' },
      },
      scope: 'private',
      authorized_agents: [client.did],
      manifest: read.value.manifest,
    });
  });
});
