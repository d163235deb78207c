import { describe, expect, it } from 'vitest';
import type { CarriedMessage } from './carrier';
import { SchedulingProjection, type CarrierEvent } from './scheduling-projection';
import { ALICE, BOB, cancel, CHARLIE, confirm, propose, response } from './test-support/fixtures';
import { decisionSince } from './thread-decision';

let seq = 0;
const event = (from: string, to: string | undefined, message: CarriedMessage): CarrierEvent => ({
  seq: ++seq,
  envelopeId: `e${seq}`,
  from,
  to,
  receivedAt: 5000 + seq,
  message,
});

describe('decisionSince', () => {
  it('names the applied message that moved the thread past a revision, never a refused or a copied one', () => {
    const p = new SchedulingProjection();
    p.apply(event(ALICE, BOB, propose));
    p.apply(event(ALICE, CHARLIE, propose));
    p.apply(event(BOB, ALICE, response));
    const view = () => p.get(propose.threadId)!;
    expect(decisionSince(view(), 1)).toBeUndefined();

    p.apply(event(ALICE, BOB, confirm));
    const confirmedAt = 5000 + seq;
    p.apply(event(ALICE, CHARLIE, confirm));
    // A second Confirm at the same revision (the console that lost) is refused: the first still counts.
    p.apply(
      event(ALICE, BOB, { ...confirm, finalSlot: { start: '2025-12-10T11:00:00Z', end: '2025-12-10T11:30:00Z' } }),
    );
    expect(decisionSince(view(), 1)).toEqual({ decision: 'confirmed', by: ALICE, at: confirmedAt, revision: 2 });
    expect(decisionSince(view(), 2)).toBeUndefined();

    p.apply(event(BOB, ALICE, cancel));
    expect(decisionSince(view(), 2)).toEqual({ decision: 'cancelled', by: BOB, at: 5000 + seq, revision: 3 });
    expect(decisionSince(view(), 1)?.decision).toBe('confirmed');
  });
});
