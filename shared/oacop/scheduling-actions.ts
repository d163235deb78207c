// What a party may send next in a scheduling thread, built from the thread's state so the new
// revision and threadId are always right. Each planner also runs the receiver's own check
// (transitionThread), so nothing is planned that the other side would refuse.
import { fail, ok, type Result } from '../errors';
import { OacopErrorCode, OacopLocalErrorCode } from './error-codes';
import { contains, mergeIntervals, parseSlot, parseSlots, restrictToWindow } from './intervals';
import type {
  CancelCollaboration,
  ConfirmCollaboration,
  Did,
  ProposalResponse,
  ProposalStatus,
  Slot,
} from './messages';
import { checkFinalSlot, transitionThread, type ThreadState } from './scheduling-thread';

export interface Planned<M> {
  readonly message: M;
  readonly next: ThreadState;
}

/**
 * The initiator's confirmation (§3.3) at revision + 1. Beyond the receiver's checks, every required
 * participant must have answered the current proposal INTERESTED or TENTATIVE with a slot that
 * covers `finalSlot`; otherwise `OACOP_CONFLICT` lists who is not available.
 */
export function planConfirmation(state: ThreadState, finalSlot: Slot): Result<Planned<ConfirmCollaboration>> {
  if (state.status !== 'PROPOSED') {
    return fail(
      OacopLocalErrorCode.INVALID_TRANSITION,
      `A ${state.status} thread cannot be confirmed from its responses.`,
    );
  }
  const fits = checkFinalSlot(state, finalSlot);
  if (!fits.ok) return fits;
  const slot = parseSlot(finalSlot);
  const unavailable = (state.constraints.requiredParticipants ?? []).filter((did) => {
    const response = state.responses[did];
    if (response === undefined || response.status === 'DECLINED' || slot === undefined) return true;
    const offered = parseSlots(response.slots);
    return !offered.ok || !mergeIntervals(offered.value).some((free) => contains(free, slot));
  });
  if (unavailable.length > 0) {
    return fail(OacopErrorCode.CONFLICT, 'Not every required participant is available for that slot.', { unavailable });
  }
  const message: ConfirmCollaboration = {
    type: 'ConfirmCollaboration',
    threadId: state.threadId,
    revision: state.revision + 1,
    finalSlot,
  };
  return plan(state, state.initiator, message);
}

/** A participant's answer to the current revision, its slots cut to the time window (§3.2). */
export function planResponse(
  state: ThreadState,
  from: Did,
  answer: { readonly status: ProposalStatus; readonly availableSlots?: readonly Slot[] },
): Result<Planned<ProposalResponse>> {
  let slots: readonly Slot[] = answer.status === 'DECLINED' ? [] : (answer.availableSlots ?? []);
  if (state.constraints.timeWindow !== undefined) {
    const restricted = restrictToWindow(slots, state.constraints.timeWindow);
    if (!restricted.ok) return restricted;
    slots = restricted.value;
  }
  const message: ProposalResponse = {
    type: 'ProposalResponse',
    threadId: state.threadId,
    respondingToRevision: state.revision,
    status: answer.status,
    ...(answer.status === 'DECLINED' ? {} : { availableSlots: slots }),
  };
  return plan(state, from, message);
}

/** A cancellation (§3.5) at revision + 1 by the initiator or a participant. */
export function planCancellation(state: ThreadState, from: Did, reason: string): Result<Planned<CancelCollaboration>> {
  const message: CancelCollaboration = {
    type: 'CancelCollaboration',
    threadId: state.threadId,
    revision: state.revision + 1,
    reason,
  };
  return plan(state, from, message);
}

function plan<M extends ConfirmCollaboration | ProposalResponse | CancelCollaboration>(
  state: ThreadState,
  from: Did,
  message: M,
): Result<Planned<M>> {
  const next = transitionThread(state, { from, message });
  return next.ok ? ok({ message, next: next.value }) : next;
}
