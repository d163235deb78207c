// The §3.2 state machine as a table: every status × every event, allowed or refused by code.
import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { tick } from './expire';
import type { NegotiationEvent, NegotiationState, NegotiationStatus } from './state';
import {
  acceptanceDoc,
  alice,
  bob,
  ctx,
  HOUR,
  opened,
  proposalDoc,
  rejectionDoc,
  T0,
  withdrawalDoc,
} from './test-support/fixtures';
import { transition } from './transition';

const apply = (s: NegotiationState, e: NegotiationEvent) => unwrap(transition(s, e, ctx()));
const propose = (s: NegotiationState, from = alice) => apply(s, { type: 'propose', document: proposalDoc(s, from) });

function reach(status: NegotiationStatus): NegotiationState {
  const open = opened();
  const proposed = propose(open);
  const countered = propose(proposed, bob);
  switch (status) {
    case 'OPEN':
      return open;
    case 'PROPOSED':
      return proposed;
    case 'COUNTERED':
      return countered;
    case 'ACCEPTED':
      return apply(countered, { type: 'accept', document: acceptanceDoc(countered, alice) });
    case 'REJECTED':
      return apply(countered, { type: 'reject', document: rejectionDoc(countered, alice) });
    case 'WITHDRAWN':
      return apply(countered, { type: 'withdraw', document: withdrawalDoc(countered, bob) });
    case 'EXPIRED':
      return tick(countered, T0 + 2 * HOUR);
  }
}

// The well-formed event each party whose turn it is would send from `s`.
function eventFor(type: NegotiationEvent['type'], s: NegotiationState): NegotiationEvent {
  const last = s.history.findLast((h) => h.type === 'propose');
  const recipient = last?.type === 'propose' && last.document.to === alice.did ? alice : bob;
  switch (type) {
    case 'propose':
      return { type, document: proposalDoc(s, recipient === alice ? alice : bob) };
    case 'accept':
      return { type, document: last ? acceptanceDoc(s, recipient) : {} };
    case 'reject':
      return { type, document: last ? rejectionDoc(s, recipient) : {} };
    case 'withdraw':
      return { type, document: withdrawalDoc(s, alice) };
    case 'expire':
      return { type };
  }
}

type Expect = NegotiationStatus | string;
const T = Code.NEGOTIATION_TERMINAL;
const table: Record<NegotiationStatus, Record<NegotiationEvent['type'], Expect>> = {
  OPEN: {
    propose: 'PROPOSED',
    accept: Code.INVALID_TRANSITION,
    reject: Code.INVALID_TRANSITION,
    withdraw: 'WITHDRAWN',
    expire: Code.NOT_EXPIRED,
  },
  PROPOSED: {
    propose: 'COUNTERED',
    accept: 'ACCEPTED',
    reject: 'REJECTED',
    withdraw: 'WITHDRAWN',
    expire: Code.NOT_EXPIRED,
  },
  COUNTERED: {
    propose: 'COUNTERED',
    accept: 'ACCEPTED',
    reject: 'REJECTED',
    withdraw: 'WITHDRAWN',
    expire: Code.NOT_EXPIRED,
  },
  ACCEPTED: { propose: T, accept: T, reject: T, withdraw: T, expire: T },
  REJECTED: { propose: T, accept: T, reject: T, withdraw: T, expire: T },
  EXPIRED: { propose: T, accept: T, reject: T, withdraw: T, expire: T },
  WITHDRAWN: { propose: T, accept: T, reject: T, withdraw: T, expire: T },
};

describe('transition: the §3.2 table', () => {
  for (const [status, row] of Object.entries(table) as [
    NegotiationStatus,
    Record<NegotiationEvent['type'], Expect>,
  ][]) {
    for (const [type, expected] of Object.entries(row) as [NegotiationEvent['type'], Expect][]) {
      it(`${status} + ${type} → ${expected}`, () => {
        const s = reach(status);
        expect(s.status).toBe(status);
        const before = structuredClone(s);
        const r = transition(s, eventFor(type, s), ctx());
        expect(r.ok ? r.value.status : r.error.code).toBe(expected);
        expect(s).toEqual(before);
        if (r.ok) expect(r.value.history).toHaveLength(s.history.length + 1);
      });
    }
  }

  it('refuses events that are not events', () => {
    const s = opened();
    const codes = [null, 'propose', { type: 'haggle', document: {} }].map((e) => {
      const r = transition(s, e as unknown as NegotiationEvent, ctx());
      return r.ok ? 'ok' : r.error.code;
    });
    expect(codes).toEqual([Code.INVALID_EVENT, Code.INVALID_EVENT, Code.INVALID_EVENT]);
  });
});
