import { describe, expect, it } from 'vitest';
import { AgentCard, agentCardOf } from './agent-card';

const entry = {
  agent_id: 'did:key:z6MkTranslator',
  agent_name: 'Translator',
  agent_description: 'Translates short texts',
  tools: {
    'translation.en_zh': { description: 'English to Chinese', kind: 'task' as const },
    'translation.en_fr': { description: 'English to French' },
  },
  scope: 'public' as const,
};

describe('agentCardOf', () => {
  it('names the agent, gives one skill per capability, and the relay as where it is reached', () => {
    const card = agentCardOf(entry, 'http://127.0.0.1:8787/events', '0.1.0');
    expect(AgentCard.parse(card)).toEqual(card);
    expect(card).toMatchObject({
      name: 'Translator',
      description: 'Translates short texts',
      supportedInterfaces: [{ url: 'http://127.0.0.1:8787/events', protocolBinding: 'AGORA' }],
    });
    expect(card.skills.map((s) => [s.id, s.tags])).toEqual([
      ['translation.en_fr', ['translation']],
      ['translation.en_zh', ['translation', 'task']],
    ]);
  });

  it('uses the endpoint the agent registered, and its DID when it has no name', () => {
    const card = agentCardOf(
      { agent_id: 'did:key:z6MkX', tools: {}, scope: 'public', agent_endpoint: 'https://agent.example/a' },
      'http://127.0.0.1/events',
      '1',
    );
    expect(card.name).toBe('did:key:z6MkX');
    expect(card.supportedInterfaces[0]!.url).toBe('https://agent.example/a');
    expect(card.skills).toEqual([]);
  });
});
