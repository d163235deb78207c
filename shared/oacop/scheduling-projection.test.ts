import { describe, expect, it } from 'vitest';
import type { CarriedMessage } from './carrier';
import { SchedulingProjection, type CarrierEvent } from './scheduling-projection';
import { ALICE, BOB, cancel, CHARLIE, confirm, propose, response } from './test-support/fixtures';

let seq = 0;
const event = (from: string, to: string | undefined, message: CarriedMessage): CarrierEvent => ({
  seq: ++seq,
  envelopeId: `e${seq}`,
  from,
  to,
  receivedAt: 1000 + seq,
  message,
});
const phases = (p: SchedulingProjection) =>
  Object.fromEntries(p.get(propose.threadId)!.participants.map((x) => [x.did, `${x.phase}@${x.revision}`]));

describe('SchedulingProjection (the console read model, decisions-oacop.md §A3)', () => {
  it('follows the §3 flow: fan-out copies once, answers, suggestion, receipts move each participant to the new revision', () => {
    const p = new SchedulingProjection();
    p.apply(event(ALICE, BOB, propose));
    p.apply(event(ALICE, CHARLIE, propose));
    expect(p.get(propose.threadId)!.log.map((e) => e.outcome)).toEqual(['applied', 'copy']);
    expect(phases(p)).toEqual({ [BOB]: 'INVITED@0', [CHARLIE]: 'INVITED@0' });
    p.apply(event(BOB, ALICE, response));
    p.apply(event(CHARLIE, ALICE, { ...response, status: 'DECLINED', availableSlots: [] }));
    const answered = p.get(propose.threadId)!;
    expect(phases(p)).toEqual({ [BOB]: 'INTERESTED@1', [CHARLIE]: 'DECLINED@1' });
    // Bob is required and free 09:00–12:00; Charlie declined: earliest 30-minute slot, Charlie not free.
    const { candidates } = answered.suggestion as unknown as { candidates: unknown[] };
    expect(candidates).toHaveLength(5); // SUGGESTION_LIMIT
    expect(candidates[0]).toEqual({
      start: '2025-12-10T09:00:00Z',
      end: '2025-12-10T09:30:00Z',
      optionalFree: [],
      missingRequired: [],
    });

    p.apply(event(ALICE, BOB, confirm));
    p.apply(event(ALICE, CHARLIE, confirm));
    p.apply(event(BOB, ALICE, { type: 'OACoPReceipt', threadId: propose.threadId, revision: 2, status: 'CONFIRMED' }));
    expect(phases(p)).toEqual({ [BOB]: 'CONFIRMED@2', [CHARLIE]: 'DECLINED@1' });
    expect(p.get(propose.threadId)!.suggestion).toBeNull();

    // §3.4.3: a response to revision 1 after the Confirm is refused and changes nothing.
    p.apply(event(CHARLIE, ALICE, response));
    expect(p.get(propose.threadId)!.log.at(-1)).toMatchObject({
      outcome: 'refused',
      error: { code: 'OACOP_STALE_REVISION' },
    });
    expect(phases(p)[CHARLIE]).toBe('DECLINED@1');

    p.apply(event(BOB, ALICE, cancel));
    p.apply(
      event(CHARLIE, BOB, {
        type: 'OACoPError',
        threadId: propose.threadId,
        code: 'OACOP_CONFLICT',
        message: 'busy',
        inReplyTo: 'e1',
        revision: 3,
      }),
    );
    expect(phases(p)).toEqual({ [BOB]: 'CANCELLED@3', [CHARLIE]: 'DECLINED@3' });
    expect(p.get(propose.threadId)!.participants.find((x) => x.did === CHARLIE)!.lastError).toMatchObject({
      code: 'OACOP_CONFLICT',
      revision: 3,
    });
    expect(p.get(propose.threadId)!.state).toMatchObject({ status: 'CANCELLED', revision: 3, cancelledBy: BOB });
  });

  it('ignores messages for threads it never saw proposed, and a proposal that cannot open', () => {
    const p = new SchedulingProjection();
    p.apply(event(ALICE, BOB, confirm));
    p.apply(event(ALICE, BOB, { ...propose, object: { type: 'Event', duration: 'P3D' } }));
    expect(p.list()).toEqual([]);
    expect(p.orphans).toBe(1);
  });

  it('names the missing required participants when no slot fits', () => {
    const p = new SchedulingProjection();
    p.apply(
      event(ALICE, BOB, { ...propose, constraints: { ...propose.constraints, requiredParticipants: [BOB, CHARLIE] } }),
    );
    p.apply(event(BOB, ALICE, response));
    const suggestion = p.get(propose.threadId)!.suggestion as unknown as {
      candidates: unknown[];
      nearestAlternatives: unknown[];
    };
    expect(suggestion.candidates).toEqual([]);
    expect(suggestion.nearestAlternatives[0]).toMatchObject({
      start: '2025-12-10T09:00:00Z',
      missingRequired: [CHARLIE],
      optionalFree: [],
    });
  });
});
