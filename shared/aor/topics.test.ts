import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildTopic,
  controlTopic,
  heartbeatTopic,
  inboxTopic,
  parseTopic,
  publicCandidatesTopic,
  publicTopic,
  TOPIC_FILTERS,
  workTopic,
  type AorTopic,
} from './topics';
import { isValidId } from './ids';

describe('topic builders (AOR §3)', () => {
  it('build every topic of the map', () => {
    expect(publicTopic('room_1')).toBe('rooms/room_1/public');
    expect(publicCandidatesTopic('room_1')).toBe('rooms/room_1/public_candidates');
    expect(controlTopic('room_1')).toBe('rooms/room_1/control');
    expect(inboxTopic('room_1', 'agent.researcher')).toBe('rooms/room_1/agents/agent.researcher/inbox');
    expect(heartbeatTopic('room_1', 'agent.researcher')).toBe('rooms/room_1/agents/agent.researcher/heartbeat');
    expect(workTopic('room_1', 'agent.researcher')).toBe('rooms/room_1/agents/agent.researcher/work');
  });

  it.each([
    ['empty room', () => publicTopic('')],
    ['room holding /', () => controlTopic('a/b')],
    ['room holding +', () => publicCandidatesTopic('+')],
    ['agent holding #', () => inboxTopic('room_1', '#')],
    ['empty agent', () => workTopic('room_1', '')],
  ])('throw CodedError invalid_id for %s', (_why, build) => {
    expect(build).toThrow(expect.objectContaining({ code: 'invalid_id' }));
  });

  it('throws on a kind outside the map (exhaustiveness guard)', () => {
    expect(() => buildTopic({ kind: 'outbox', roomId: 'room_1' } as unknown as AorTopic)).toThrow(
      expect.objectContaining({ code: 'UNREACHABLE' }),
    );
  });

  it('§8 filters are the spec strings', () => {
    expect(TOPIC_FILTERS).toEqual({
      public: 'rooms/+/public',
      publicCandidates: 'rooms/+/public_candidates',
      control: 'rooms/+/control',
    });
  });
});

describe('parseTopic', () => {
  it.each([
    ['rooms/room_1/public', { kind: 'public', roomId: 'room_1' }],
    ['rooms/room_1/public_candidates', { kind: 'public_candidates', roomId: 'room_1' }],
    ['rooms/room_1/control', { kind: 'control', roomId: 'room_1' }],
    ['rooms/r/agents/agent.researcher/inbox', { kind: 'inbox', roomId: 'r', agentId: 'agent.researcher' }],
    ['rooms/r/agents/a/heartbeat', { kind: 'heartbeat', roomId: 'r', agentId: 'a' }],
    ['rooms/r/agents/a/work', { kind: 'work', roomId: 'r', agentId: 'a' }],
  ])('reads %s', (topic, expected) => {
    expect(parseTopic(topic)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', 'not under rooms/{roomId}/'],
    ['rooms', 'not under rooms/{roomId}/'],
    ['rooms/room_1', 'not under rooms/{roomId}/'],
    ['room/room_1/public', 'not under rooms/{roomId}/'],
    ['/rooms/room_1/public', 'not under rooms/{roomId}/'],
    ['rooms//public', 'invalid roomId'],
    ['rooms/+/public', 'invalid roomId'],
    ['rooms/#/public', 'invalid roomId'],
    ['rooms/a b/public', 'invalid roomId'],
    ['rooms/a/b/public', 'wrong number of levels'],
    ['rooms/room_1/public/', 'wrong number of levels'],
    ['rooms/room_1/private', 'unknown room topic'],
    ['rooms/room_1/agents', 'unknown room topic'],
    ['rooms/r/agents//inbox', 'invalid agentId'],
    ['rooms/r/agents/+/inbox', 'invalid agentId'],
    ['rooms/r/agents/a#/inbox', 'invalid agentId'],
    ['rooms/r/agents/a/b/inbox', 'wrong number of levels'],
    ['rooms/r/agents/a/outbox', 'unknown agent topic'],
    ['rooms/r/people/a/inbox', 'wrong number of levels'],
  ])('refuses %j (%s)', (topic, why) => {
    expect(parseTopic(topic)).toMatchObject({ ok: false, error: { code: 'invalid_topic', details: { why } } });
  });

  it('throws TypeError on a non-string', () => {
    expect(() => parseTopic(undefined as unknown as string)).toThrow(TypeError);
  });

  it('round-trips every topic it builds', () => {
    const id = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }).filter(isValidId);
    const topic: fc.Arbitrary<AorTopic> = fc.oneof(
      fc.record({
        kind: fc.constantFrom('public' as const, 'public_candidates' as const, 'control' as const),
        roomId: id,
      }),
      fc.record({
        kind: fc.constantFrom('inbox' as const, 'heartbeat' as const, 'work' as const),
        roomId: id,
        agentId: id,
      }),
    );
    fc.assert(
      fc.property(topic, (t) => {
        expect(parseTopic(buildTopic(t))).toEqual({ ok: true, value: t });
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('never accepts a topic whose ids hold a separator or wildcard', () => {
    const bad = fc
      .tuple(fc.string({ maxLength: 4 }), fc.constantFrom('+', '#', ''), fc.string({ maxLength: 4 }))
      .map(([a, w, b]) => (w === '' ? '' : a + w + b));
    fc.assert(
      fc.property(bad, fc.constantFrom('public', 'control', 'public_candidates'), (roomId, kind) => {
        expect(parseTopic(`rooms/${roomId}/${kind}`).ok).toBe(false);
        expect(parseTopic(`rooms/r/agents/${roomId}/inbox`).ok).toBe(false);
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
