import { describe, expect, it } from 'vitest';
import { addLive, emptyTimeline, mergeHistory, type IncomingEntry } from './timeline-merge';

const msg = (id: string, cursor: number | null, topic = 'rooms/ops/public', receivedAt = 1_000): IncomingEntry => ({
  cursor,
  topic,
  topicKind: topic.split('/').at(-1) ?? 'public',
  topicAgentId: null,
  messageId: id,
  type: 'result',
  fromId: 'agent.a',
  receivedAt,
  raw: `{"id":"${id}"}`,
  envelope: { id },
  source: cursor === null ? 'live' : 'history',
});

const ids = (t: { entries: readonly { messageId: string | null }[] }) => t.entries.map((e) => e.messageId);

describe('timeline merge', () => {
  it('orders history by cursor and tracks the highest cursor', () => {
    const t = mergeHistory(emptyTimeline, [msg('b', 2), msg('a', 1), msg('c', 3)]);
    expect(ids(t)).toEqual(['a', 'b', 'c']);
    expect(t.lastCursor).toBe(3);
  });

  it('appends live messages after history and drops a live duplicate', () => {
    let t = mergeHistory(emptyTimeline, [msg('a', 1)]);
    t = addLive(t, msg('a', null));
    t = addLive(t, msg('x', null));
    t = addLive(t, msg('x', null));
    expect(ids(t)).toEqual(['a', 'x']);
    expect(t.lastCursor).toBe(1);
  });

  it('a backfill after a dropped connection fills the gap without repeating what arrived live', () => {
    let t = mergeHistory(emptyTimeline, [msg('a', 1)]);
    t = addLive(t, msg('b', null)); // seen live before the drop
    t = addLive(t, msg('d', null)); // seen live after the reconnect, before the backfill answered
    // The backfill from cursor 1 holds b (seen), c (missed while disconnected) and d (seen).
    t = mergeHistory(t, [msg('b', 2, 'rooms/ops/public', 2_000), msg('c', 3), msg('d', 4)]);
    expect(ids(t)).toEqual(['a', 'b', 'c', 'd']);
    expect(t.entries.map((e) => e.cursor)).toEqual([1, 2, 3, 4]);
    expect(t.entries[1]!.receivedAt).toBe(2_000);
    expect(t.lastCursor).toBe(4);
  });

  it('keeps the same id on two topics apart (a candidate and its republication)', () => {
    let t = addLive(emptyTimeline, msg('m', null, 'rooms/ops/public_candidates'));
    t = addLive(t, msg('m', null, 'rooms/ops/public'));
    expect(t.entries).toHaveLength(2);
  });

  it('a repeated history page changes nothing', () => {
    const page = [msg('a', 1), msg('b', 2)];
    const once = mergeHistory(emptyTimeline, page);
    const twice = mergeHistory(once, page);
    expect(ids(twice)).toEqual(['a', 'b']);
  });

  it('dedupes bytes without an envelope id by their text', () => {
    const bad: IncomingEntry = { ...msg('z', null), messageId: null, raw: 'not json' };
    let t = addLive(emptyTimeline, bad);
    t = mergeHistory(t, [{ ...bad, cursor: 7, source: 'history' }]);
    expect(t.entries).toHaveLength(1);
    expect(t.entries[0]!.cursor).toBe(7);
  });
});

describe('paging', () => {
  it('prepends an older page, appends a burst of live messages once, and knows the oldest cursor', async () => {
    const { addLiveMany, oldestCursor } = await import('./timeline-merge');
    let t = mergeHistory(emptyTimeline, [msg('c', 30), msg('d', 40)]);
    t = mergeHistory(t, [msg('a', 10), msg('b', 20)]);
    expect(ids(t)).toEqual(['a', 'b', 'c', 'd']);
    expect(oldestCursor(t)).toBe(10);
    t = addLiveMany(t, [msg('e', null), msg('e', null), msg('d', null), msg('f', null)]);
    expect(ids(t)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(t.keys.get(t.entries[5]!.key)).toBe(5);
    // The backfill hands the live ones their cursors without repeating them.
    t = mergeHistory(t, [msg('e', 50), msg('f', 60)]);
    expect(ids(t)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(t.lastCursor).toBe(60);
  });
});
