// The gateway's memory of admitted candidates (decisions-server.md §30) and of the decisions to
// hand over again when one comes again (§35).
import fc from 'fast-check';
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

it('forgets the oldest remembered candidate, not one admitted again after a forget', () => {
  const recent = new RecentCandidates(2);
  recent.admit('r1', 'agent.a', 'a', bytes('x'));
  recent.admit('r1', 'agent.a', 'b', bytes('x'));
  recent.forget('r1', 'agent.a', 'a');
  recent.admit('r1', 'agent.a', 'a', bytes('x')); // now newer than 'b'
  recent.admit('r1', 'agent.a', 'c', bytes('x')); // past the bound: 'b' goes
  expect(recent.admit('r1', 'agent.a', 'a', bytes('x'))).toBe('same');
  expect(recent.admit('r1', 'agent.a', 'b', bytes('x'))).toBe('new');
});

// The memory answers as a plain list of what is remembered, oldest first, would: the queue and its
// skipped stale entries are an implementation detail.
it('answers like a list that forgets its oldest entry past the bound', () => {
  type Op = { kind: 'admit'; id: string; body: string } | { kind: 'forget'; id: string };
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('admit' as const),
      id: fc.constantFrom('a', 'b', 'c', 'd'),
      body: fc.constantFrom('x', 'y'),
    }),
    fc.record({ kind: fc.constant('forget' as const), id: fc.constantFrom('a', 'b', 'c', 'd') }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 3 }), fc.array(op, { maxLength: 100 }), (capacity, ops: Op[]) => {
      const recent = new RecentCandidates(capacity);
      let model: { id: string; body: string }[] = [];
      for (const o of ops) {
        if (o.kind === 'forget') {
          recent.forget('r1', 'agent.a', o.id);
          model = model.filter((e) => e.id !== o.id);
          continue;
        }
        const known = model.find((e) => e.id === o.id);
        const expected = known ? (known.body === o.body ? 'same' : 'different') : 'new';
        if (!known) {
          model.push({ id: o.id, body: o.body });
          if (model.length > capacity) model.shift();
        }
        expect(recent.admit('r1', 'agent.a', o.id, bytes(o.body))).toBe(expected);
      }
    }),
    { numRuns: 2_000 },
  );
});
