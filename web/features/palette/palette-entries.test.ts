import { describe, expect, it } from 'vitest';
import { paletteEntries } from './palette-entries';

const did = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const other = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';
const names: Record<string, string> = { [did]: 'Acme Weather API', [other]: 'You' };
const nameOf = (id: string) => names[id] ?? id.slice(0, 12);

describe('the command palette finds things by name', () => {
  const entries = paletteEntries({
    screens: [{ to: '/rooms', label: 'Rooms' }],
    rooms: [{ id: 'demo', name: 'Demo room' }],
    agents: [{ agentId: 'agent.rogue', suspended: { reason: 'flooding' } }, { agentId: 'agent.worker' }],
    negotiations: [{ id: 'neg_1', state: 'AGREED', parties: [did, other], category: 'weather.forecast' }],
    threads: [
      {
        id: 'thread_abcdefghijklmnopqrstuvwxyz',
        status: 'PENDING',
        intent: 'Translate the spring catalogue to German',
      },
      { id: 'thread_zyxwvutsrqponmlkjihgfedcba', status: 'ERROR' },
    ],
    meetings: [{ threadId: 'urn:uuid:1', title: 'Planning sync', status: 'PROPOSED' }],
    operators: [{ did: other, role: 'facilitator', name: null }],
    nameOf,
  });
  const by = (key: string) => entries.find((e) => e.key === key)!;

  it('labels each thing as a person reads it, and keeps its id among the words it is found by', () => {
    expect(by('room:demo')).toMatchObject({ label: 'Demo room', to: '/rooms/demo', keywords: ['demo'] });
    expect(by('negotiation:neg_1')).toMatchObject({
      label: 'weather.forecast: Acme Weather API and You',
      hint: 'agreed',
      to: '/negotiations/neg_1',
    });
    expect(by('negotiation:neg_1').keywords).toEqual(expect.arrayContaining(['neg_1', did]));
    expect(by('thread:thread_abcdefghijklmnopqrstuvwxyz').label).toBe('Translate the spring catalogue to German');
    expect(by('meeting:urn:uuid:1')).toMatchObject({ label: 'Planning sync', to: '/scheduling/urn%3Auuid%3A1' });
    expect(by(`operator:${other}`)).toMatchObject({ label: 'You', hint: 'facilitator', to: '/settings/operators' });
  });

  it('names a thread without an intent by its short id, never the whole id', () => {
    const label = by('thread:thread_zyxwvutsrqponmlkjihgfedcba').label;
    expect(label).toMatch(/^Thread /);
    expect(label).not.toContain('thread_zyxwvutsrqponmlkjihgfedcba');
  });

  it('goes to an agent’s row on the Agents screen, saying when it is suspended', () => {
    expect(by('agent:agent.rogue')).toMatchObject({
      to: '/fleet',
      hash: 'agent-agent.rogue',
      hint: 'agent, suspended',
    });
    expect(by('agent:agent.worker').hint).toBe('agent');
  });

  it('keeps one entry per thing, screens first', () => {
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
    expect(entries[0]).toMatchObject({ group: 'Screens', label: 'Rooms' });
  });
});
