import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { cleanName, mergeNames, nameIn, shortId } from './name-book';
import { NAMES_KEY, addDemoNames, watchNames } from './name-cache';
import { demoNames, directoryNames, presenceNames, roomAgentNames, sessionNames } from './name-sources';
import type { NameBook } from './name-book';
import { firstWords, meetingName, taskName } from './item-names';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

describe('choosing a name', () => {
  it('takes the most trusted source whatever the order the entries come in', () => {
    const entries = [
      { id: DID, name: 'weather bot v2', source: 'room' as const },
      { id: DID, name: 'Acme Weather API', source: 'directory' as const },
      { id: DID, name: 'Acme (demo)', source: 'demo' as const },
    ];
    expect(mergeNames(entries)[DID]).toEqual({ name: 'Acme Weather API', source: 'directory' });
    expect(mergeNames([...entries].reverse())[DID]).toEqual({ name: 'Acme Weather API', source: 'directory' });
    expect(mergeNames([...entries, { id: DID, name: 'You', source: 'you' }])[DID]?.name).toBe('You');
  });

  it('tells apart two ids whose names read alike: a second "Ada" cannot pass as the first (decisions-server.md §82)', () => {
    const ADA = 'did:key:z6MkAdaFirstOperatorKeyAAAAAAAAAAAAAAAAAAAAAAAAAAAAfirst1';
    const MIMIC = 'did:key:z6MkMimicOperatorKeyBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBmimic2';
    const book = mergeNames([
      { id: ADA, name: 'Ada', source: 'operator' },
      { id: MIMIC, name: 'ada\u200b', source: 'operator' },
      { id: DID, name: 'Acme Weather API', source: 'directory' },
    ]);
    expect(book[ADA]?.name).toBe('Ada (…first1)');
    expect(book[MIMIC]?.name).toBe('ada\u200b (…mimic2)');
    expect(book[DID]?.name).toBe('Acme Weather API');
    // Somebody calling themself "You" does not pass as the operator reading the page.
    const me = mergeNames([
      { id: ADA, name: 'You', source: 'you' },
      { id: MIMIC, name: 'You', source: 'operator' },
    ]);
    expect(me[ADA]?.name).toBe('You');
    expect(me[MIMIC]?.name).toBe('You (…mimic2)');
  });

  it('keeps a name to one line of at most 60 characters and drops empty ones', () => {
    expect(cleanName('  Ana  ')).toBe('Ana');
    expect(cleanName('Line one\nline two')).toBe('Line one');
    expect(cleanName('   ')).toBeUndefined();
    expect([...cleanName('x'.repeat(80))!]).toHaveLength(60);
    expect(mergeNames([{ id: DID, name: ' ', source: 'operator' }])).toEqual({});
  });

  it('falls back to a short id: a did:key by its start and last six characters', () => {
    expect(shortId(DID)).toBe('did:key:z6Mk…ta2doK');
    expect(shortId(DID)).toMatch(/^did:key:z6Mk…[A-Za-z0-9]{6}$/);
    expect(shortId('task-1')).toBe('task-1');
    expect(shortId('0f8e7d6c-5b4a-4321-9876-543210fedcba')).toBe('0f8e7d6c…fedcba');
    expect(nameIn({}, DID)).toBe(shortId(DID));
    expect(nameIn({ [DID]: { name: 'Ana', source: 'operator' } }, DID)).toBe('Ana');
  });
});

describe('reading sources', () => {
  it('reads each source by shape and ignores what does not fit', () => {
    expect(sessionNames({ did: DID, role: 'facilitator', name: 'Ana' })).toEqual([
      { id: DID, name: 'You', source: 'you' },
    ]);
    expect(
      presenceNames({
        operators: [
          { did: DID, name: 'Ana' },
          { did: 'did:key:z6MkB', name: null },
        ],
      }),
    ).toEqual([{ id: DID, name: 'Ana', source: 'operator' }]);
    expect(directoryNames([{ agent_id: DID, agent_name: 'Acme' }, { agent_id: 'x' }])).toEqual([
      { id: DID, name: 'Acme', source: 'directory' },
    ]);
    expect(demoNames({ names: { [DID]: 'Northwind', bad: 3 } })).toEqual([
      { id: DID, name: 'Northwind', source: 'demo' },
    ]);
    expect(
      roomAgentNames([
        { agentId: 'a1', description: 'Scheduler' },
        { agentId: 'a2', description: null },
      ]),
    ).toEqual([{ id: 'a1', name: 'Scheduler', source: 'room' }]);
    expect(sessionNames(null)).toEqual([]);
    expect(presenceNames('nonsense')).toEqual([]);
  });
});

describe('the one book in the query cache', () => {
  it('follows the cached queries as they get data, the most trusted source winning', () => {
    const client = new QueryClient();
    const stop = watchNames(client);
    const book = () => client.getQueryData<NameBook>(NAMES_KEY) ?? {};
    expect(book()).toEqual({});
    client.setQueryData(['rooms', 'ops', 'agents'], [{ agentId: DID, description: 'a weather agent' }]);
    expect(book()[DID]?.name).toBe('a weather agent');
    client.setQueryData(['agora', 'agents'], [{ agent_id: DID, agent_name: 'Acme Weather API' }]);
    expect(book()[DID]?.name).toBe('Acme Weather API');
    addDemoNames(client, { 'did:key:z6MkSeller': 'Acme seller' });
    expect(book()['did:key:z6MkSeller']?.source).toBe('demo');
    client.setQueryData(['auth', 'session'], { did: DID, role: 'facilitator', name: null });
    expect(book()[DID]).toEqual({ name: 'You', source: 'you' });
    // Queries that carry no names leave the book alone.
    client.setQueryData(['negotiations', 'all'], { agent_id: 'did:key:z6MkOther', agent_name: 'Nobody' });
    expect(book()['did:key:z6MkOther']).toBeUndefined();
    stop();
  });
});

describe('things named by what they are about', () => {
  it('names a task by its title, else its goal’s first words, else a short id', () => {
    expect(taskName({ threadId: 't1', object: { title: 'Prepare the quarterly report' } })).toBe(
      'Prepare the quarterly report',
    );
    expect(
      taskName({
        threadId: '0f8e7d6c-5b4a-4321-9876-543210fedcba',
        object: { description: 'Collect the invoices from March and April and reconcile them with the ledger' },
      }),
    ).toBe('Collect the invoices from March and April and…');
    expect(taskName({ threadId: '0f8e7d6c-5b4a-4321-9876-543210fedcba', object: { title: '  ' } })).toBe(
      'Task 0f8e7d6c…fedcba',
    );
  });

  it('names a meeting by its title, else a short id', () => {
    expect(meetingName({ threadId: 'm1', title: 'Quarterly review' })).toBe('Quarterly review');
    expect(meetingName({ threadId: 'm1', title: null })).toBe('Meeting m1');
    expect(firstWords('a\nb   c', 2)).toBe('a b…');
  });
});
