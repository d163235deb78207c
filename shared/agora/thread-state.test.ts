import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THREAD_TIMEOUTS,
  expectedMessages,
  isTerminal,
  openThread,
  threadDeadline,
  tick,
} from './thread-state';
import type { ActiveThread, PendingThread, ThreadState, ThreadTimeouts } from './thread-state';
import { T0, agentA, client } from './test-support/fixtures';

const timeouts: ThreadTimeouts = { noOfferMs: 1000, noAcceptMs: 5000, noResultMs: 3000 };

const pending: PendingThread = {
  status: 'PENDING',
  threadId: 'thread_1',
  client: client.did,
  requestId: 'req_1',
  requestMessageId: 'msg_req',
  requestedAt: T0,
  offers: [],
};
const withOffer: PendingThread = {
  ...pending,
  offers: [{ offerId: 'msg_offer', agent: agentA.did, receivedAt: T0 + 10 }],
};
const active: ActiveThread = {
  ...withOffer,
  status: 'ACTIVE',
  accepted: { offerId: 'msg_offer', agent: agentA.did, acceptId: 'msg_acc', at: T0 + 100 },
};

describe('tick', () => {
  it('PENDING without an OFFER ends in ERROR (timeout, no_offer) once the limit is passed', () => {
    expect(tick(pending, T0 + 1000, timeouts)).toBe(pending);
    expect(tick(pending, T0 + 1001, timeouts)).toEqual({
      ...pending,
      status: 'ERROR',
      ended: { type: 'timeout', phase: 'no_offer', from: 'PENDING', at: T0 + 1001 },
    });
  });

  it('PENDING with offers but no ACCEPT ends after noAcceptMs (our addition)', () => {
    expect(tick(withOffer, T0 + 5000, timeouts)).toBe(withOffer);
    expect(tick(withOffer, T0 + 5001, timeouts)).toMatchObject({
      status: 'ERROR',
      ended: { type: 'timeout', phase: 'no_accept' },
    });
  });

  it('ACTIVE without a RESULT ends after noResultMs, counted from the ACCEPT', () => {
    expect(tick(active, T0 + 3100, timeouts)).toBe(active);
    expect(tick(active, T0 + 3101, timeouts)).toMatchObject({
      status: 'ERROR',
      accepted: active.accepted,
      ended: { type: 'timeout', phase: 'no_result', from: 'ACTIVE' },
    });
  });

  it('leaves OPEN and terminal threads alone, and Infinity disables a timeout', () => {
    const open = openThread('t');
    expect(tick(open, T0 + 1e12, timeouts)).toBe(open);
    const ended = tick(pending, T0 + 1e6, timeouts);
    expect(tick(ended, T0 + 1e12, timeouts)).toBe(ended);
    expect(tick(pending, T0 + 1e12, { ...timeouts, noOfferMs: Infinity })).toBe(pending);
  });

  it('uses the defaults when none are given', () => {
    expect(tick(pending, T0 + DEFAULT_THREAD_TIMEOUTS.noOfferMs)).toBe(pending);
    expect(tick(pending, T0 + DEFAULT_THREAD_TIMEOUTS.noOfferMs + 1).status).toBe('ERROR');
  });
});

describe('isTerminal / expectedMessages', () => {
  it('knows the terminal states and what each state takes next', () => {
    const completed: ThreadState = {
      ...active,
      status: 'COMPLETED',
      result: { messageId: 'r', status: 'success', at: T0 },
    };
    const failed = tick(pending, T0 + 1e6, timeouts);
    expect([openThread('t'), pending, active].map(isTerminal)).toEqual([false, false, false]);
    expect([completed, failed].map(isTerminal)).toEqual([true, true]);
    expect(expectedMessages(openThread('t'))).toEqual(['REQUEST']);
    expect(expectedMessages(pending)).toEqual(['OFFER', 'ERROR']);
    expect(expectedMessages(withOffer)).toEqual(['OFFER', 'ACCEPT', 'ERROR']);
    expect(expectedMessages(active)).toEqual(['RESULT', 'CANCEL', 'ERROR']);
    expect(expectedMessages(completed)).toEqual([]);
    expect(expectedMessages(failed)).toEqual([]);
  });
});

describe('defensive checks', () => {
  it('throws on a value that is not a thread state (e.g. corrupted storage)', () => {
    const bogus = { status: 'PAUSED', threadId: 't' } as unknown as ThreadState;
    expect(() => tick(bogus, T0, timeouts)).toThrow(/Unhandled thread state/);
    expect(() => expectedMessages(bogus)).toThrow(/Unhandled thread state/);
  });
});

describe('threadDeadline', () => {
  it('is the last instant tick leaves the thread alone: one millisecond later it times out', () => {
    for (const state of [pending, withOffer, active] as ThreadState[]) {
      const deadline = threadDeadline(state, timeouts);
      expect(deadline).not.toBeNull();
      expect(tick(state, deadline as number, timeouts)).toBe(state);
      expect(tick(state, (deadline as number) + 1, timeouts).status).toBe('ERROR');
    }
    expect(threadDeadline(pending, timeouts)).toBe(T0 + 1000);
    expect(threadDeadline(withOffer, timeouts)).toBe(T0 + 5000);
    expect(threadDeadline(active, timeouts)).toBe(T0 + 100 + 3000);
  });

  it('is null where no timeout applies: OPEN, terminal states, an Infinity limit', () => {
    expect(threadDeadline(openThread('t'))).toBeNull();
    const ended = tick(pending, T0 + 10_000, timeouts);
    expect(ended.status).toBe('ERROR');
    expect(threadDeadline(ended, timeouts)).toBeNull();
    expect(threadDeadline(pending, { ...timeouts, noOfferMs: Infinity })).toBeNull();
    expect(threadDeadline(pending)).toBe(T0 + DEFAULT_THREAD_TIMEOUTS.noOfferMs);
  });
});
