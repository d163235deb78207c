// Property tests of the thread machine over random event sequences, with a fixed seed so any
// failure replays: never two ACCEPTs, never a RESULT outside ACTIVE, never out of a terminal
// state, and only the table's edges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES } from './envelope';
import type { Envelope, MessageType } from './envelope';
import { AgoraReason } from './reject-reasons';
import { isTerminal, openThread } from './thread-state';
import type { ThreadState, ThreadStatus } from './thread-state';
import { transition } from './thread-transition';
import type { ThreadEvent } from './thread-transition';
import { T0, agentA, agentB, client, iso, stranger, unsignedAs } from './test-support/fixtures';
import type { Party } from './test-support/fixtures';

const SEED = 20260202;
const parties: readonly Party[] = [client, agentA, agentB, stranger];

type Step =
  | {
      readonly kind: 'msg';
      readonly type: MessageType;
      /** Sender: the party whose role fits the type (client for ACCEPT, an agent for OFFER …), or anyone. */
      readonly plausible: boolean;
      readonly from: number;
      readonly to: number; // -1: no recipient
      readonly goodRequestId: boolean;
      readonly goodThread: boolean;
      readonly offerPick: number; // -1: no offer_id; else index into offers taken so far (or a bogus id)
      readonly validForMs: number; // -1: no valid_until
      readonly dt: number;
    }
  | { readonly kind: 'tick'; readonly dt: number };

const messageStep = fc.record({
  kind: fc.constant('msg' as const),
  type: fc.constantFrom<MessageType>(...MESSAGE_TYPES, 'OFFER', 'OFFER', 'ACCEPT', 'ACCEPT', 'RESULT', 'RESULT'),
  plausible: fc.constantFrom(true, true, true, false),
  from: fc.nat({ max: parties.length - 1 }),
  to: fc.constantFrom(-1, -1, -1, 0, 1, 2, 3),
  goodRequestId: fc.constantFrom(true, true, true, true, false),
  goodThread: fc.constantFrom(true, true, true, true, true, false),
  offerPick: fc.integer({ min: -1, max: 3 }),
  validForMs: fc.constantFrom(-1, -1, 0, 1000, 60_000),
  dt: fc.nat({ max: 20_000 }),
});
const tickStep = fc.record({ kind: fc.constant('tick' as const), dt: fc.nat({ max: 4 * 60_000 }) });
interface Scenario {
  readonly opening: { readonly from: number; readonly to: number } | null;
  readonly steps: readonly Step[];
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  opening: fc.option(fc.record({ from: fc.constantFrom(0, 0, 0, 1, 3), to: fc.constantFrom(-1, -1, -1, 0, 1, 2) }), {
    freq: 8,
  }),
  steps: fc.array(fc.oneof({ weight: 10, arbitrary: messageStep }, { weight: 1, arbitrary: tickStep }), {
    minLength: 1,
    maxLength: 60,
    size: 'medium',
  }),
});

/** The sender a well-behaved party in that role would be, given the thread so far. */
function plausibleSender(state: ThreadState, type: MessageType, from: number): Party {
  const byDid = (did: string) => parties.find((p) => p.did === did) ?? stranger;
  const agent = from % 2 === 0 ? agentA : agentB;
  if (state.status === 'OPEN') return type === 'REQUEST' ? client : agent;
  switch (type) {
    case 'REQUEST':
    case 'ACCEPT':
    case 'CANCEL':
      return byDid(state.client);
    case 'OFFER':
      return state.addressedTo === undefined ? agent : byDid(state.addressedTo);
    case 'RESULT':
      return 'accepted' in state && state.accepted ? byDid(state.accepted.agent) : agent;
    case 'ERROR':
      return parties[from] as Party;
    default:
      return stranger;
  }
}

interface Observed {
  readonly pre: ThreadState;
  readonly event: ThreadEvent;
  readonly post: ThreadState;
  readonly ok: boolean;
}

/** Plays a scenario, returning every step with the state before and after. */
function play(s: Scenario): Observed[] {
  let now = T0;
  let counter = 0;
  const offerIds: string[] = [];
  const events: ThreadEvent[] = [];
  const pick = (i: number): Party | undefined => (i < 0 ? undefined : parties[i]);
  if (s.opening) {
    const to = pick(s.opening.to);
    events.push({
      type: 'message',
      now,
      envelope: unsignedAs('REQUEST', { from: parties[s.opening.from] as Party, ...(to ? { to } : {}), id: 'req_msg' }),
    });
  }
  const observed: Observed[] = [];
  let state: ThreadState = openThread('thread_1');
  const apply = (event: ThreadEvent) => {
    const result = transition(state, event);
    if (!result.ok) expect(AgoraReason[result.error.details.reason]).toBe(result.error.code);
    const post = result.ok ? result.value : state;
    observed.push({ pre: state, event, post, ok: result.ok });
    state = post;
    return result.ok;
  };
  events.forEach(apply);
  for (const step of s.steps) {
    now += step.dt;
    if (step.kind === 'tick') {
      apply({
        type: 'tick',
        now,
        timeouts: { noOfferMs: 5 * 60_000, noAcceptMs: 15 * 60_000, noResultMs: 10 * 60_000 },
      });
      continue;
    }
    counter += 1;
    const id = `m${counter}`;
    const to = pick(step.to);
    const payload: Record<string, unknown> = step.goodRequestId ? {} : { request_id: 'req_other' };
    if (step.type === 'OFFER' && step.validForMs >= 0) payload.valid_until = iso(now + step.validForMs);
    if (step.type === 'ACCEPT' && step.offerPick >= 0) payload.offer_id = offerIds[step.offerPick] ?? 'bogus';
    const envelope: Envelope = unsignedAs(step.type, {
      from: step.plausible ? plausibleSender(state, step.type, step.from) : (parties[step.from] as Party),
      ...(to ? { to } : {}),
      id,
      thread: step.goodThread ? 'thread_1' : 'thread_x',
      payload,
    });
    if (apply({ type: 'message', now, envelope }) && step.type === 'OFFER') offerIds.push(id);
  }
  return observed;
}

const EDGES = new Set<string>([
  'OPEN>PENDING',
  'PENDING>PENDING',
  'PENDING>ACTIVE',
  'PENDING>ERROR',
  'ACTIVE>COMPLETED',
  'ACTIVE>ERROR',
]);
const edge = (from: ThreadStatus, to: ThreadStatus) => `${from}>${to}`;
const typeOf = (event: ThreadEvent) => (event.type === 'message' ? event.envelope.type : 'tick');

describe('thread machine properties (fast-check, seed ' + SEED + ')', () => {
  const params = { seed: SEED, numRuns: 1000 };

  it('never takes two ACCEPTs in one thread', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const accepts = play(s).filter((o) => o.ok && typeOf(o.event) === 'ACCEPT');
        expect(accepts.length).toBeLessThanOrEqual(1);
      }),
      params,
    );
  });

  it('takes a RESULT only while ACTIVE, only from the accepted agent, and it completes the thread', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        for (const o of play(s)) {
          if (!o.ok || o.event.type !== 'message' || o.event.envelope.type !== 'RESULT') continue;
          expect(o.pre.status).toBe('ACTIVE');
          expect(o.post.status).toBe('COMPLETED');
          if (o.pre.status === 'ACTIVE') expect(o.event.envelope.sender.id).toBe(o.pre.accepted.agent);
        }
      }),
      params,
    );
  });

  it('never leaves a terminal state, and refuses every message there', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        for (const o of play(s)) {
          if (!isTerminal(o.pre)) continue;
          expect(o.post).toBe(o.pre);
          if (o.event.type === 'message') expect(o.ok).toBe(false);
        }
      }),
      params,
    );
  });

  it('moves only along the edges of the state table, and a refusal changes nothing', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        for (const o of play(s)) {
          if (!o.ok) expect(o.post).toBe(o.pre);
          else if (o.post.status !== o.pre.status) expect(EDGES.has(edge(o.pre.status, o.post.status))).toBe(true);
          if (o.ok && o.event.type === 'message' && o.pre.status === 'ACTIVE' && o.post.status !== 'ACTIVE') {
            expect(['RESULT', 'CANCEL', 'ERROR']).toContain(o.event.envelope.type);
          }
        }
      }),
      params,
    );
  });

  it('reaches every state, and tries second ACCEPTs, with these generators (the properties are not vacuous)', () => {
    const seen = new Set<ThreadStatus>();
    let activeRuns = 0;
    let secondAccepts = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        const observed = play(s);
        for (const o of observed) seen.add(o.post.status);
        if (observed.some((o) => o.post.status === 'ACTIVE')) activeRuns++;
        secondAccepts += observed.filter((o) => o.pre.status === 'ACTIVE' && typeOf(o.event) === 'ACCEPT').length;
      }),
      params,
    );
    expect([...seen].sort()).toEqual(['ACTIVE', 'COMPLETED', 'ERROR', 'OPEN', 'PENDING']);
    expect(activeRuns).toBeGreaterThan(params.numRuns / 20);
    expect(secondAccepts).toBeGreaterThan(50);
  });
});
