import { describe, expect, it } from 'vitest';
import { AgentEntry } from './agent-entry';
import { agentsResponseExample } from './test-support/examples';

describe('AgentEntry', () => {
  it('accepts both entries of the §3.3 example unchanged', () => {
    for (const entry of agentsResponseExample) expect(AgentEntry.parse(entry)).toEqual(entry);
  });

  it('requires agent_id, tools and scope; checks the optional fields it knows', () => {
    const [publicEntry] = agentsResponseExample;
    const without = (key: string) =>
      Object.fromEntries(Object.entries(publicEntry as object).filter(([k]) => k !== key));
    for (const key of ['agent_id', 'tools', 'scope'])
      expect(AgentEntry.safeParse(without(key)).success, key).toBe(false);
    const bad: Record<string, unknown>[] = [
      { ...publicEntry, scope: 'internal' },
      { ...publicEntry, agent_endpoint: 'javascript:alert(1)' },
      { ...publicEntry, tools: { '': { description: 'x' } } },
      { ...publicEntry, tools: { t: { plugin: 'P' } } },
      { ...publicEntry, tools: { t: { description: 'x', kind: 'magic' } } },
      { ...publicEntry, authorized_agents: ['has space'] },
    ];
    for (const entry of bad) expect(AgentEntry.safeParse(entry).success, JSON.stringify(entry)).toBe(false);
  });

  it('takes the tool extensions used to build a tools_response', () => {
    const entry = {
      agent_id: 'a',
      scope: 'public',
      tools: {
        schedule_meeting: { description: 'd', kind: 'task', SLA: '60 minutes', request_format: { date: 'string' } },
      },
    };
    expect(AgentEntry.parse(entry)).toEqual(entry);
  });
});
