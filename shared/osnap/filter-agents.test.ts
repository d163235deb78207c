import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEntry } from './agent-entry';
import { filterAgents, hasCapability, isVisibleTo } from './filter-agents';
import { agentsResponseExample } from './test-support/examples';

const entries = agentsResponseExample as AgentEntry[];
const [publicAgent, privateAgent] = entries as [AgentEntry, AgentEntry];
const AUTHORIZED = 'c6a2f2e9-0689-4e7d-8a04-6b3abefc1e3d';
const ids = (list: AgentEntry[]) => list.map((entry) => entry.agent_id);

describe('filterAgents', () => {
  it('shows an anonymous caller only public agents', () => {
    expect(ids(filterAgents(entries))).toEqual([publicAgent.agent_id]);
    expect(ids(filterAgents(entries, { scope: 'private' }))).toEqual([]);
  });

  it('shows a private agent to a caller in authorized_agents, and to nobody else', () => {
    expect(ids(filterAgents(entries, { caller: AUTHORIZED }))).toEqual([publicAgent.agent_id, privateAgent.agent_id]);
    expect(ids(filterAgents(entries, { caller: 'someone-else' }))).toEqual([publicAgent.agent_id]);
    // Not even to itself, unless it lists itself.
    expect(ids(filterAgents(entries, { caller: privateAgent.agent_id }))).toEqual([publicAgent.agent_id]);
    const noList: AgentEntry = { agent_id: 'x', tools: {}, scope: 'private' };
    expect(filterAgents([noList], { caller: 'x' })).toEqual([]);
  });

  it('filters by scope', () => {
    expect(ids(filterAgents(entries, { caller: AUTHORIZED, scope: 'private' }))).toEqual([privateAgent.agent_id]);
    expect(ids(filterAgents(entries, { caller: AUTHORIZED, scope: 'public' }))).toEqual([publicAgent.agent_id]);
  });

  it('filters by capability: exact tool name, or a name in its dotted namespace', () => {
    const translator: AgentEntry = {
      agent_id: 'tr',
      scope: 'public',
      tools: { 'translation.en_zh': { description: 'en→zh' } },
    };
    const plural: AgentEntry = { agent_id: 'pl', scope: 'public', tools: { translations: { description: 'x' } } };
    const all = [...entries, translator, plural];
    expect(ids(filterAgents(all, { capability: 'example_capability' }))).toEqual([publicAgent.agent_id]);
    expect(ids(filterAgents(all, { capability: 'translation' }))).toEqual(['tr']);
    expect(ids(filterAgents(all, { capability: 'translation.en_zh' }))).toEqual(['tr']);
    expect(ids(filterAgents(all, { capability: 'translation.en' }))).toEqual([]);
    expect(ids(filterAgents(all, { capability: 'example' }))).toEqual([]);
    expect(hasCapability(translator, '')).toBe(false);
    expect(hasCapability(translator, 'toString')).toBe(false);
  });

  it('never reveals who else may see an entry', () => {
    const shared: AgentEntry = { ...privateAgent, authorized_agents: [AUTHORIZED, 'other-1', 'other-2'] };
    const publicWithList: AgentEntry = { ...publicAgent, authorized_agents: ['x'] };
    const [seenPublic, seenPrivate] = filterAgents([publicWithList, shared], { caller: AUTHORIZED });
    expect(seenPublic).toEqual(publicAgent);
    expect(seenPrivate).toEqual({ ...privateAgent, authorized_agents: [AUTHORIZED] });
    expect(shared.authorized_agents).toHaveLength(3); // input untouched
  });

  it('isVisibleTo agrees with the filter', () => {
    expect(isVisibleTo(publicAgent, undefined)).toBe(true);
    expect(isVisibleTo(privateAgent, undefined)).toBe(false);
    expect(isVisibleTo(privateAgent, AUTHORIZED)).toBe(true);
  });
});

describe('filterAgents properties (fast-check, seed 4004)', () => {
  const agentIds = ['a1', 'a2', 'a3', 'a4', 'a5'];
  const toolNames = ['weather', 'weather.forecast', 'translation.en_zh', 'schedule_meeting', 'search'];
  const entry = fc.record(
    {
      agent_id: fc.constantFrom(...agentIds),
      tools: fc.dictionary(fc.constantFrom(...toolNames), fc.record({ description: fc.string() }), { maxKeys: 3 }),
      scope: fc.constantFrom('public' as const, 'private' as const),
      authorized_agents: fc.uniqueArray(fc.constantFrom(...agentIds), { maxLength: 3 }),
    },
    { requiredKeys: ['agent_id', 'tools', 'scope'] },
  );
  const filter = fc.record(
    {
      capability: fc.constantFrom(
        'weather',
        'translation',
        'search',
        'schedule_meeting',
        'nothing',
        'weather.forecast',
      ),
      scope: fc.constantFrom('public' as const, 'private' as const),
      caller: fc.constantFrom(...agentIds, 'outsider'),
    },
    { requiredKeys: [] },
  );
  const params = { seed: 4004, numRuns: 1000 };

  it('no private agent ever reaches a caller not in its authorized_agents', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), filter, (list, query) => {
        const shown = filterAgents(list, query);
        for (const result of shown) {
          if (result.scope !== 'private') continue;
          expect(query.caller).toBeDefined();
          const originals = list.filter((e) => e.scope === 'private' && e.agent_id === result.agent_id);
          expect(originals.some((e) => (e.authorized_agents ?? []).includes(query.caller as string))).toBe(true);
          expect(result.authorized_agents).toEqual([query.caller]);
        }
        if (query.caller === undefined) expect(shown.every((e) => e.scope === 'public')).toBe(true);
      }),
      params,
    );
  });

  it('returns exactly the visible entries matching the query, in order', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), filter, (list, query) => {
        const expected = list.filter(
          (e) =>
            isVisibleTo(e, query.caller) &&
            (query.scope === undefined || e.scope === query.scope) &&
            (query.capability === undefined || hasCapability(e, query.capability)),
        );
        expect(ids(filterAgents(list, query))).toEqual(ids(expected));
      }),
      params,
    );
  });
});
