import { describe, expect, it } from 'vitest';
import { cardHost, reachedAt } from './imported-agent-card';

const card = { name: 'A', description: '', version: '1', skills: [] };

describe('an imported agent in words', () => {
  it('links only an http(s) card URL, by its host', () => {
    expect(cardHost('https://agent.example:8443/.well-known/agent-card.json')).toBe('agent.example:8443');
    expect(cardHost('javascript:alert(1)')).toBeUndefined();
    expect(cardHost('not a url')).toBeUndefined();
  });

  it('says where the agent is reached: A2A 0.3’s url with its transport, else 1.0’s first interface', () => {
    expect(reachedAt({ ...card, url: 'https://a.example/a2a', preferredTransport: 'JSONRPC' })).toBe(
      'over JSONRPC at https://a.example/a2a',
    );
    expect(reachedAt({ ...card, url: 'https://a.example/a2a' })).toBe('at https://a.example/a2a');
    expect(
      reachedAt({ ...card, supportedInterfaces: [{ url: 'https://b.example/rpc', protocolBinding: 'GRPC' }] }),
    ).toBe('over GRPC at https://b.example/rpc');
    expect(reachedAt(card)).toBeUndefined();
  });
});
