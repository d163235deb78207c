import { describe, expect, it } from 'vitest';
import type { InboxItem, InboxList } from '@shared/contract/inbox';
import { parseInboxList, SLICE } from './parse-list';

const item = (i: number): InboxItem => ({
  id: `review:ops:${i}`,
  kind: 'review',
  urgency: 'now',
  title: `agent.a's result ${i} waits for review in ops`,
  quote: null,
  since: i,
  dueAt: null,
  href: '/rooms/ops',
  ref: { kind: 'review', roomId: 'ops', candidateId: String(i), agentId: 'agent.a' },
  claim: null,
});
const list = (n: number): InboxList => ({
  items: Array.from({ length: n }, (_, i) => item(i)),
  summary: { roomsActive: 1, agentsOnline: 0, rejectsLastHour: 0 },
  version: 7,
});

describe('parseInboxList', () => {
  it('checks a large list a slice at a time, yielding between slices, and keeps every item in order', async () => {
    let pauses = 0;
    const parsed = await parseInboxList(JSON.parse(JSON.stringify(list(SLICE * 3 + 1))), () => {
      pauses += 1;
      return Promise.resolve();
    });
    expect(pauses).toBe(3);
    expect(parsed?.items.map((i) => i.since)).toEqual(Array.from({ length: SLICE * 3 + 1 }, (_, i) => i));
    expect(parsed?.version).toBe(7);
  });

  it('does not yield for a list of one slice', async () => {
    let pauses = 0;
    await parseInboxList(list(SLICE), () => {
      pauses += 1;
      return Promise.resolve();
    });
    expect(pauses).toBe(0);
  });

  it('refuses the whole list when one item, however deep, does not fit the contract', async () => {
    const bad = list(SLICE + 2) as unknown as { items: Record<string, unknown>[] };
    bad.items[SLICE + 1] = { ...bad.items[SLICE + 1], kind: 'nonsense' };
    expect(await parseInboxList(bad, () => Promise.resolve())).toBeUndefined();
    expect(await parseInboxList({ items: 'no', summary: {}, version: 1 })).toBeUndefined();
  });
});
