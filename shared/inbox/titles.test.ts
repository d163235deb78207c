import { describe, expect, it } from 'vitest';
import {
  cosignTitle,
  grantTitle,
  questionTitle,
  rejectsTitle,
  reviewTitle,
  serviceTitle,
  shortDid,
  slotTitle,
} from './titles';

describe('titles', () => {
  it("are the server's sentences, one per kind", () => {
    expect(reviewTitle('agent.analyst', 'ops', 'result')).toBe("agent.analyst's result waits for review in ops");
    expect(reviewTitle('agent.analyst', 'ops', 'ack', 'Compare three weather APIs')).toBe(
      "agent.analyst's acknowledgement on “Compare three weather APIs” waits for review in ops",
    );
    expect(reviewTitle('a', 'ops', 'progress', 'one two three four five six seven eight nine')).toBe(
      "a's progress note on “one two three four five six seven eight…” waits for review in ops",
    );
    expect(reviewTitle('a', 'ops', 'bogus')).toBe("a's message waits for review in ops");
    expect(rejectsTitle('agent.rogue', 14, 'ops')).toBe('agent.rogue: 14 rejects in 10 minutes in ops');
    expect(questionTitle('agent.analyst', 'ops')).toBe('agent.analyst asks a clarifying question in ops');
    expect(slotTitle(1)).toBe('A meeting waits for slot approval: 1 answer is in');
    expect(slotTitle(3)).toBe('A meeting waits for slot approval: 3 answers are in');
    expect(serviceTitle('Acme relay')).toBe('Acme relay is down');
    expect(cosignTitle('pricing', 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH')).toBe(
      'The pricing agreement with did:key:z6Mk…sdvktH waits for your co-signature',
    );
    expect(cosignTitle('pricing', 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH', 'Acme Weather API')).toBe(
      'The pricing agreement with Acme Weather API waits for your co-signature',
    );
  });

  it('say how a grant ends: in seconds, in minutes, or by its last messages', () => {
    expect(grantTitle('a', 'ops', { reason: 'time', msLeft: 45_500, budgetLeft: 3 })).toBe(
      "a's grant in ops ends in 46 s",
    );
    expect(grantTitle('a', 'ops', { reason: 'time', msLeft: 90_000, budgetLeft: 3 })).toBe(
      "a's grant in ops ends in 2 min",
    );
    expect(grantTitle('a', 'ops', { reason: 'budget', msLeft: 1e6, budgetLeft: 1 })).toBe(
      "a's grant in ops has 1 message left",
    );
    expect(grantTitle('a', 'ops', { reason: 'budget', msLeft: 1e6, budgetLeft: 2 })).toBe(
      "a's grant in ops has 2 messages left",
    );
  });

  it('shorten a did the way the rest of the console does, and leave a short id whole', () => {
    expect(shortDid('did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG')).toBe('did:key:z6Mk…RDjVJG');
    expect(shortDid('did:key:z6Mk')).toBe('did:key:z6Mk');
    expect(shortDid('did:web:example.com')).toBe('did:web:example.com');
  });
});
