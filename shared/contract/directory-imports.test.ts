import { describe, expect, it } from 'vitest';
import { agentCardOf } from '../a2a/agent-card';
import { ImportedAgentCard, MAX_CARD_SKILLS } from './directory-imports';

const skill = (id: string) => ({ id, name: `Skill ${id}`, description: 'Does a thing', tags: ['thing'] });
const v03 = {
  protocolVersion: '0.3.0',
  name: 'Travel planner',
  description: 'Plans trips',
  url: 'https://travel.example/a2a',
  preferredTransport: 'JSONRPC',
  version: '2.1.0',
  capabilities: { streaming: true, extensions: [{ uri: 'urn:x' }] },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ ...skill('book'), examples: ['To Oslo'], security: [{ oauth: [] }] }],
  securitySchemes: { oauth: { type: 'oauth2' } },
  signatures: [{ protected: 'x', signature: 'y' }],
};

describe('ImportedAgentCard', () => {
  it('reads an A2A 0.3 card, dropping every field it does not name', () => {
    const card = ImportedAgentCard.parse(v03);
    expect(card).not.toHaveProperty('securitySchemes');
    expect(card).not.toHaveProperty('signatures');
    expect(card.capabilities).toEqual({ streaming: true });
    expect(card.skills).toEqual([{ ...skill('book'), examples: ['To Oslo'] }]);
  });

  it('reads an A2A 1.0 card, this server’s own included', () => {
    const own = agentCardOf(
      { agent_id: 'did:key:z6MkX', agent_name: 'X', tools: { 'a.b': { description: 'ab' } }, scope: 'public' },
      'http://127.0.0.1:8787/events',
      '0.1.0',
    );
    const card = ImportedAgentCard.parse(own);
    expect(card.supportedInterfaces).toEqual([
      { url: 'http://127.0.0.1:8787/events', protocolBinding: 'AGORA', protocolVersion: '1.0' },
    ]);
    expect(card.skills.map((s) => s.id)).toEqual(['a.b']);
  });

  it('needs a name, a description, a version, skills, and where the agent is reached', () => {
    for (const key of ['name', 'description', 'version', 'skills', 'url'] as const) {
      const { [key]: _, ...rest } = v03;
      const parsed = ImportedAgentCard.safeParse(rest);
      expect(parsed.success, key).toBe(false);
      expect(
        parsed.error!.issues.map((i) => i.path.join('.')),
        key,
      ).toContain(key);
    }
    expect(ImportedAgentCard.safeParse({ ...v03, url: 'javascript:alert(1)' }).success).toBe(false);
    expect(ImportedAgentCard.safeParse({ ...v03, url: 'file:///etc/passwd' }).success).toBe(false);
  });

  it('bounds every string and list: long names, many skills, many tags are refused', () => {
    expect(ImportedAgentCard.safeParse({ ...v03, name: 'x'.repeat(201) }).success).toBe(false);
    expect(ImportedAgentCard.safeParse({ ...v03, description: 'x'.repeat(4_001) }).success).toBe(false);
    const many = Array.from({ length: MAX_CARD_SKILLS + 1 }, (_, i) => skill(String(i)));
    expect(ImportedAgentCard.safeParse({ ...v03, skills: many }).success).toBe(false);
    expect(ImportedAgentCard.safeParse({ ...v03, skills: many.slice(0, MAX_CARD_SKILLS) }).success).toBe(true);
    const tags = Array.from({ length: 33 }, (_, i) => `t${i}`);
    expect(ImportedAgentCard.safeParse({ ...v03, skills: [{ ...skill('a'), tags }] }).success).toBe(false);
    expect(ImportedAgentCard.safeParse({ ...v03, skills: [{ ...skill('a'), name: 7 }] }).success).toBe(false);
  });
});
