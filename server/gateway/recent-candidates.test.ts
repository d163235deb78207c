// The gateway's memory of admitted candidates (decisions-server.md §30) and of the decisions to
// hand over again when one comes again (§35).
import { expect, it } from 'vitest';
import { RECENT_PER_ROOM, RecentCandidates } from './recent-candidates';

const bytes = (s: string) => new TextEncoder().encode(s);
const approved = { topic: 'rooms/r1/public', payload: bytes('{"id":"m1"}') };

it('tells a candidate seen before with the same bytes from one reusing its id', () => {
  const recent = new RecentCandidates();
  expect(recent.admit('r1', 'agent.a', 'm1', bytes('one'))).toBe('new');
  expect(recent.admit('r1', 'agent.a', 'm1', bytes('one'))).toBe('same');
  expect(recent.admit('r1', 'agent.a', 'm1', bytes('two'))).toBe('different');
  // Per agent and per room.
  expect(recent.admit('r1', 'agent.b', 'm1', bytes('one'))).toBe('new');
  expect(recent.admit('r2', 'agent.a', 'm1', bytes('one'))).toBe('new');
});

it('gives a kept decision back once, and keeps none for a candidate it does not remember', () => {
  const recent = new RecentCandidates();
  recent.keepDecision('r1', 'agent.a', 'm1', approved);
  expect(recent.takeDecision('r1', 'agent.a', 'm1')).toBeUndefined();
  recent.admit('r1', 'agent.a', 'm1', bytes('one'));
  recent.keepDecision('r1', 'agent.a', 'm1', approved);
  expect(recent.takeDecision('r1', 'agent.b', 'm1')).toBeUndefined();
  expect(recent.takeDecision('r1', 'agent.a', 'm1')).toBe(approved);
  expect(recent.takeDecision('r1', 'agent.a', 'm1')).toBeUndefined();
});

it('forgets the oldest candidate of a room past its bound, with its kept decision', () => {
  const recent = new RecentCandidates();
  recent.admit('r1', 'agent.a', 'first', bytes('x'));
  recent.keepDecision('r1', 'agent.a', 'first', approved);
  for (let i = 0; i < RECENT_PER_ROOM; i++) recent.admit('r1', 'agent.a', `m${i}`, bytes('x'));
  expect(recent.takeDecision('r1', 'agent.a', 'first')).toBeUndefined();
  expect(recent.admit('r1', 'agent.a', 'first', bytes('x'))).toBe('new');
});
