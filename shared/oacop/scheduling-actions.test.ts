import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { planCancellation, planConfirmation, planResponse } from './scheduling-actions';
import { openThread, transitionThread, type ThreadState } from './scheduling-thread';
import { ALICE, BOB, CHARLIE, DAVE, propose, response } from './test-support/fixtures';

const opened = (): ThreadState => unwrap(openThread({ from: ALICE, message: propose }));
const slot = { start: '2025-12-10T10:00:00Z', end: '2025-12-10T10:30:00Z' };

describe('planConfirmation', () => {
  it('confirms at revision + 1 when every required participant offered the slot', () => {
    const state = unwrap(transitionThread(opened(), { from: BOB, message: response }));
    const planned = unwrap(planConfirmation(state, slot));
    expect(planned.message).toEqual({
      type: 'ConfirmCollaboration',
      threadId: propose.threadId,
      revision: 2,
      finalSlot: slot,
    });
    expect(planned.next).toMatchObject({ status: 'CONFIRMED', revision: 2 });
  });

  it('counts a TENTATIVE answer and slots that only cover the final slot together', () => {
    const split = {
      ...response,
      status: 'TENTATIVE' as const,
      availableSlots: [
        { start: '2025-12-10T10:15:00Z', end: '2025-12-10T11:00:00Z' },
        { start: '2025-12-10T09:00:00Z', end: '2025-12-10T10:15:00Z' },
      ],
    };
    const state = unwrap(transitionThread(opened(), { from: BOB, message: split }));
    expect(planConfirmation(state, slot).ok).toBe(true);
  });

  it.each([
    ['has not answered', []],
    ['declined', [{ status: 'DECLINED' as const, availableSlots: [] }]],
    [
      'offered other times',
      [
        {
          status: 'INTERESTED' as const,
          availableSlots: [{ start: '2025-12-11T10:00:00Z', end: '2025-12-11T12:00:00Z' }],
        },
      ],
    ],
  ])('is OACOP_CONFLICT when a required participant %s', (_what, answers) => {
    let state = opened();
    for (const answer of answers)
      state = unwrap(transitionThread(state, { from: BOB, message: { ...response, ...answer } }));
    expect(planConfirmation(state, slot)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_CONFLICT', details: { unavailable: [BOB] } },
    });
  });

  it('does not wait for optional participants', () => {
    const state = unwrap(transitionThread(opened(), { from: BOB, message: response }));
    expect(state.responses[CHARLIE]).toBeUndefined();
    expect(planConfirmation(state, slot).ok).toBe(true);
  });

  it('refuses a slot the receivers would refuse, and a thread that is not PROPOSED', () => {
    const state = unwrap(transitionThread(opened(), { from: BOB, message: response }));
    expect(planConfirmation(state, { start: '2025-12-10T10:00:00Z', end: '2025-12-10T11:00:00Z' })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
    const confirmed = unwrap(planConfirmation(state, slot)).next;
    expect(planConfirmation(confirmed, slot)).toMatchObject({ ok: false, error: { code: 'OACOP_INVALID_TRANSITION' } });
  });
});

describe('planResponse', () => {
  it('answers the current revision with slots cut to the window (§3.2)', () => {
    const planned = unwrap(
      planResponse(opened(), BOB, {
        status: 'INTERESTED',
        availableSlots: [
          { start: '2025-12-10T06:00:00Z', end: '2025-12-10T09:00:00Z' },
          { start: '2025-12-20T06:00:00Z', end: '2025-12-20T09:00:00Z' },
        ],
      }),
    );
    expect(planned.message).toEqual({
      type: 'ProposalResponse',
      threadId: propose.threadId,
      respondingToRevision: 1,
      status: 'INTERESTED',
      availableSlots: [{ start: '2025-12-10T08:00:00Z', end: '2025-12-10T09:00:00Z' }],
    });
    expect(planned.next.responses[BOB]?.slots).toEqual(planned.message.availableSlots);
  });

  it('sends no slots with a refusal', () => {
    const planned = unwrap(
      planResponse(opened(), BOB, {
        status: 'DECLINED',
        availableSlots: [{ start: '2025-12-10T09:00:00Z', end: '2025-12-10T12:00:00Z' }],
      }),
    );
    expect(planned.message).not.toHaveProperty('availableSlots');
  });

  it('passes slots through when there is no window, and refuses bad ones', () => {
    const state = unwrap(openThread({ from: ALICE, message: { ...propose, constraints: {} } }));
    expect(unwrap(planResponse(state, BOB, { status: 'TENTATIVE' })).message.availableSlots).toEqual([]);
    expect(
      planResponse(opened(), BOB, { status: 'INTERESTED', availableSlots: [{ start: 'x', end: 'y' }] }),
    ).toMatchObject({ ok: false });
  });

  it('refuses to answer for a non-participant', () => {
    expect(planResponse(opened(), DAVE, { status: 'INTERESTED' })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_NOT_AUTHORIZED' },
    });
  });
});

describe('planCancellation', () => {
  it('cancels at revision + 1', () => {
    const planned = unwrap(planCancellation(opened(), CHARLIE, 'SICKNESS'));
    expect(planned.message).toEqual({
      type: 'CancelCollaboration',
      threadId: propose.threadId,
      revision: 2,
      reason: 'SICKNESS',
    });
    expect(planned.next).toMatchObject({ status: 'CANCELLED', cancelledBy: CHARLIE });
    expect(planCancellation(planned.next, ALICE, 'again')).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_TRANSITION' },
    });
  });
});
