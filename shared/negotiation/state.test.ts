import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import {
  hasExpired,
  isParty,
  isTerminal,
  latestProposal,
  NegotiationState,
  otherParty,
  proposals,
  TERMINAL_STATUSES,
} from './state';
import { alice, bob, carol, ctx, HOUR, opened, proposalDoc, T0 } from './test-support/fixtures';
import { transition } from './transition';

describe('state helpers', () => {
  it('terminal statuses are the four §3.2 marks as terminal', () => {
    expect(TERMINAL_STATUSES).toEqual(['ACCEPTED', 'REJECTED', 'EXPIRED', 'WITHDRAWN']);
    expect(isTerminal('COUNTERED')).toBe(false);
  });

  it('derives the latest proposal and the parties from the history', () => {
    const s0 = opened();
    expect(latestProposal(s0)).toBeNull();
    const s1 = unwrap(transition(s0, { type: 'propose', document: proposalDoc(s0, bob) }, ctx()));
    expect(latestProposal(s1)?.from).toBe(bob.did);
    expect(proposals(s1)).toHaveLength(1);
    expect(otherParty(s1, alice.did)).toBe(bob.did);
    expect(otherParty(s1, bob.did)).toBe(alice.did);
    expect([isParty(s1, alice.did), isParty(s1, carol.did)]).toEqual([true, false]);
    expect([hasExpired(latestProposal(s1)!, T0 + HOUR), hasExpired(latestProposal(s1)!, T0 + HOUR + 1)]).toEqual([
      false,
      true,
    ]);
  });

  it('a state survives a JSON round trip through its schema (what a store does)', () => {
    const s0 = opened();
    const s1 = unwrap(transition(s0, { type: 'propose', document: proposalDoc(s0, bob) }, ctx()));
    expect(NegotiationState.parse(JSON.parse(JSON.stringify(s1)))).toEqual(s1);
  });
});
