import {
  addLiveMany,
  emptyTimeline,
  mergeHistory,
  type IncomingEntry,
  type TimelineEntry,
} from '@web/lib/mqtt/timeline-merge';
import { describe, expect, it } from 'vitest';
import { filterTimeline, messageTypeOf, parseTimelineSearch, timelineFilter } from './timeline-filter';

const entry = (over: Partial<TimelineEntry> & { envelope?: unknown }): TimelineEntry => ({
  key: 'k',
  cursor: 1,
  seq: 0,
  topic: 'rooms/ops/public',
  topicKind: 'public',
  topicAgentId: null,
  messageId: 'm1',
  type: 'result',
  fromId: 'agent.a',
  receivedAt: 0,
  raw: '{"payload":{"content":{"text":"Disk is FULL"}}}',
  envelope: { type: 'result', payload: { message_type: 'finding', content: { text: 'Disk is FULL' } } },
  source: 'history',
  ...over,
});

describe('timeline search params', () => {
  it('keeps valid values and drops the rest', () => {
    expect(parseTimelineSearch({ agent: ' agent.a ', type: 'ack', q: 42, topic: 'all', m: '17' })).toEqual({
      agent: 'agent.a',
      type: 'ack',
      q: '42',
      topic: 'all',
      m: 17,
    });
    expect(parseTimelineSearch({ topic: 'inbox', m: -1, agent: '' })).toEqual({});
    expect(parseTimelineSearch({ topic: 'public', m: 1.5 })).toEqual({});
  });
});

describe('timeline filter', () => {
  it('shows public messages by default, control or both when asked', () => {
    const control = entry({ topicKind: 'control', topic: 'rooms/ops/control' });
    expect(timelineFilter({})(entry({}))).toBe(true);
    expect(timelineFilter({})(control)).toBe(false);
    expect(timelineFilter({ topic: 'control' })(control)).toBe(true);
    expect(timelineFilter({ topic: 'all' })(control)).toBe(true);
    expect(timelineFilter({ topic: 'control' })(entry({}))).toBe(false);
  });

  it('matches the sender, the topic agent, or the agent a control message names', () => {
    const only = timelineFilter({ agent: 'agent.b', topic: 'all' });
    expect(only(entry({}))).toBe(false);
    expect(only(entry({ fromId: 'agent.b' }))).toBe(true);
    expect(
      only(
        entry({
          topicKind: 'control',
          fromId: 'did:key:z6Mk',
          envelope: { type: 'mic_grant', payload: { agent_id: 'agent.b' } },
        }),
      ),
    ).toBe(true);
  });

  it('matches the message type a reader sees, or the envelope type, ignoring case', () => {
    expect(messageTypeOf(entry({}))).toBe('finding');
    expect(timelineFilter({ type: 'Finding' })(entry({}))).toBe(true);
    expect(timelineFilter({ type: 'result' })(entry({}))).toBe(true);
    expect(timelineFilter({ type: 'ack' })(entry({}))).toBe(false);
  });

  it('finds free text in the raw message, ignoring case', () => {
    expect(timelineFilter({ q: 'disk is full' })(entry({}))).toBe(true);
    expect(timelineFilter({ q: 'memory' })(entry({}))).toBe(false);
  });
});

describe('filtering a growing timeline', () => {
  const incoming = (id: string, cursor: number | null, fromId: string): IncomingEntry => ({
    cursor,
    topic: 'rooms/ops/public',
    topicKind: 'public',
    topicAgentId: null,
    messageId: id,
    type: 'result',
    fromId,
    receivedAt: 0,
    raw: `{"id":"${id}"}`,
    envelope: { id },
    source: cursor === null ? 'live' : 'history',
  });
  const ids = (entries: readonly TimelineEntry[]) => entries.map((e) => e.messageId);

  it('gives what a full filter gives, through live bursts, history pages and a new filter', () => {
    const onlyA = timelineFilter({ agent: 'agent.a' });
    let t = mergeHistory(emptyTimeline, [incoming('h1', 1, 'agent.a'), incoming('h2', 2, 'agent.b')]);
    expect(ids(filterTimeline(t, onlyA))).toEqual(['h1']);
    t = addLiveMany(t, [incoming('l1', null, 'agent.a'), incoming('l2', null, 'agent.b')]);
    expect(ids(filterTimeline(t, onlyA))).toEqual(['h1', 'l1']);
    // A burst with nothing matching keeps the same array, so nothing downstream re-renders.
    const before = filterTimeline(t, onlyA);
    t = addLiveMany(t, [incoming('l3', null, 'agent.b')]);
    expect(filterTimeline(t, onlyA)).toBe(before);
    // A backfill gives live entries their cursor: not an append, so everything is filtered again.
    t = mergeHistory(t, [incoming('l1', 3, 'agent.a'), incoming('h0', 0, 'agent.a')]);
    const after = filterTimeline(t, onlyA);
    expect(ids(after)).toEqual(ids(t.entries.filter(onlyA)));
    expect(after.find((e) => e.messageId === 'l1')?.cursor).toBe(3);
    expect(ids(filterTimeline(t, timelineFilter({ agent: 'agent.b' })))).toEqual(['h2', 'l2', 'l3']);
  });
});
