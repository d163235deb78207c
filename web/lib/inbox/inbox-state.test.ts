import { describe, expect, it } from 'vitest';
import type { InboxItem, InboxList } from '@shared/contract/inbox';
import { applyInboxEvent, newItems, roomOf, type InboxState } from './inbox-state';

const summary = { roomsActive: 1, agentsOnline: 2, rejectsLastHour: 0 };

function review(id: string, since: number, urgency: InboxItem['urgency'] = 'now'): InboxItem {
  return {
    id,
    kind: 'review',
    urgency,
    title: `${id} waits`,
    quote: null,
    since,
    dueAt: null,
    href: '/rooms/ops',
    ref: { kind: 'review', roomId: 'ops', candidateId: id, agentId: 'agent.a' },
    claim: null,
  };
}

const list = (items: InboxItem[], version: number): InboxList => ({ items, summary, version });
const ids = (s: InboxState | null) => s?.items.map((i) => i.id);

describe('inbox stream reducer', () => {
  it('ignores changes before the first snapshot, then takes the snapshot in inbox order', () => {
    expect(applyInboxEvent(null, { type: 'upsert', version: 3, item: review('a', 1) })).toBeNull();
    const s = applyInboxEvent(null, {
      type: 'snapshot',
      list: list([review('late', 30), review('info', 1, 'info'), review('early', 10)], 5),
    });
    expect(ids(s)).toEqual(['early', 'late', 'info']);
    expect(s?.version).toBe(5);
  });

  it('inserts an upsert in order and replaces an item with the same id', () => {
    let s = applyInboxEvent(null, { type: 'snapshot', list: list([review('a', 10), review('c', 30)], 1) });
    s = applyInboxEvent(s, { type: 'upsert', version: 2, item: review('b', 20) });
    expect(ids(s)).toEqual(['a', 'b', 'c']);
    s = applyInboxEvent(s, { type: 'upsert', version: 3, item: { ...review('c', 30), urgency: 'now', since: 5 } });
    expect(ids(s)).toEqual(['c', 'a', 'b']);
    expect(s?.items).toHaveLength(3);
    expect(s?.version).toBe(3);
  });

  it('removes by id and takes a new summary', () => {
    let s = applyInboxEvent(null, { type: 'snapshot', list: list([review('a', 1), review('b', 2)], 1) });
    s = applyInboxEvent(s, { type: 'remove', version: 2, id: 'a' });
    expect(ids(s)).toEqual(['b']);
    s = applyInboxEvent(s, { type: 'summary', version: 3, summary: { ...summary, rejectsLastHour: 4 } });
    expect(s?.summary.rejectsLastHour).toBe(4);
  });

  it('drops events the held version already includes', () => {
    const s = applyInboxEvent(null, { type: 'snapshot', list: list([review('a', 1)], 7) });
    expect(applyInboxEvent(s, { type: 'remove', version: 7, id: 'a' })).toBe(s);
    expect(applyInboxEvent(s, { type: 'upsert', version: 6, item: review('z', 0) })).toBe(s);
  });

  it('lets a later snapshot replace everything, even with a lower version (a restarted server)', () => {
    const s = applyInboxEvent(null, { type: 'snapshot', list: list([review('a', 1)], 9) });
    const t = applyInboxEvent(s, { type: 'snapshot', list: list([review('b', 1)], 2) });
    expect(ids(t)).toEqual(['b']);
    expect(t?.version).toBe(2);
  });

  it('tells which items are new and which room an item is in', () => {
    expect(newItems([review('a', 1)], [review('a', 1), review('b', 2)]).map((i) => i.id)).toEqual(['b']);
    expect(roomOf(review('a', 1))).toBe('ops');
    expect(roomOf({ ...review('s', 1), kind: 'service', ref: { kind: 'service', serviceId: 'svc_1' } })).toBeNull();
  });
});
