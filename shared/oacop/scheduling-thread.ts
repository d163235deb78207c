// OACoP §3 scheduling thread as a pure state machine: PROPOSED → CONFIRMED → CANCELLED, every step
// checked for authority (§3.4.1), revision (§3.4.2–3) and the proposal's constraints. The same
// function runs on the initiator, on participants and in the console, so they cannot disagree.
import { assertNever, fail, ok, type Result } from '../errors';
import { durationMs } from './duration';
import { OacopErrorCode, OacopLocalErrorCode } from './error-codes';
import { contains, parseSlot } from './intervals';
import type {
  CancelCollaboration,
  CollaborationObject,
  ConfirmCollaboration,
  Constraints,
  Did,
  ProposalResponse,
  ProposalStatus,
  ProposeCollaboration,
  Slot,
} from './messages';
import { applyRevision, checkRespondingRevision } from './revision';

export interface ParticipantResponse {
  readonly status: ProposalStatus;
  readonly slots: readonly Slot[];
}

interface ThreadBase {
  readonly threadId: string;
  /** The DID that signed the first proposal; only it may re-propose or confirm (§3.4.1). */
  readonly initiator: Did;
  readonly revision: number;
  readonly object: CollaborationObject;
  readonly constraints: Constraints;
  /** Answers to the current proposal, by responding DID; cleared by every new proposal. */
  readonly responses: Readonly<Record<Did, ParticipantResponse>>;
}

export type ThreadState =
  | (ThreadBase & { readonly status: 'PROPOSED' })
  | (ThreadBase & { readonly status: 'CONFIRMED'; readonly finalSlot: Slot })
  | (ThreadBase & {
      readonly status: 'CANCELLED';
      readonly reason: string;
      readonly cancelledBy: Did;
      readonly finalSlot?: Slot;
    });

export type ThreadMessage = ProposeCollaboration | ProposalResponse | ConfirmCollaboration | CancelCollaboration;

/**
 * A message and the DID that signed the envelope carrying it (OATP's role, played by Agora
 * envelopes: docs/decisions-oacop.md, "Transport"). Authority is judged on `from`, never on the
 * unsigned-by-itself `sender` field.
 */
export interface ThreadEvent<M extends ThreadMessage = ThreadMessage> {
  readonly from: Did;
  readonly message: M;
}

const { NOT_AUTHORIZED, INVALID_TRANSITION, INVALID_MESSAGE } = OacopLocalErrorCode;

/** The first state of a thread, from its proposal. A late joiner may first see revision > 1. */
export function openThread(event: ThreadEvent<ProposeCollaboration>): Result<ThreadState> {
  const { from, message } = event;
  const sender = checkSender(event);
  if (!sender.ok) return sender;
  const fits = checkProposalFits(message);
  if (!fits.ok) return fits;
  return ok({
    status: 'PROPOSED',
    threadId: message.threadId,
    initiator: from,
    revision: message.revision,
    object: message.object,
    constraints: message.constraints ?? {},
    responses: {},
  });
}

export function transitionThread(state: ThreadState, event: ThreadEvent): Result<ThreadState> {
  const { message } = event;
  if (message.threadId !== state.threadId) {
    return fail(INVALID_MESSAGE, `The message belongs to thread ${message.threadId}, not ${state.threadId}.`);
  }
  const sender = checkSender(event);
  if (!sender.ok) return sender;
  switch (message.type) {
    case 'ProposeCollaboration':
      return repropose(state, event.from, message);
    case 'ProposalResponse':
      return respond(state, event.from, message);
    case 'ConfirmCollaboration':
      return confirm(state, event.from, message);
    case 'CancelCollaboration':
      return cancel(state, event.from, message);
    default:
      return assertNever(message, 'thread message');
  }
}

/** §3.4.1 The initiator may change the proposal (new object, constraints) at a higher revision. */
function repropose(state: ThreadState, from: Did, message: ProposeCollaboration): Result<ThreadState> {
  if (from !== state.initiator)
    return fail(NOT_AUTHORIZED, 'Only the initiator may change the proposal (OACoP §3.4.1).');
  const revision = applyRevision(state, message);
  if (!revision.ok) return revision;
  if (state.status === 'CANCELLED') return fail(INVALID_TRANSITION, 'The thread is cancelled.');
  const fits = checkProposalFits(message);
  if (!fits.ok) return fits;
  return ok({
    status: 'PROPOSED',
    threadId: state.threadId,
    initiator: state.initiator,
    revision: message.revision,
    object: message.object,
    constraints: message.constraints ?? {},
    responses: {},
  });
}

function respond(state: ThreadState, from: Did, message: ProposalResponse): Result<ThreadState> {
  // Revision first: §3.4.3's race (a response to revision 1 after the revision-2 Confirm) is stale.
  const revision = checkRespondingRevision(state.revision, message.respondingToRevision);
  if (!revision.ok) return revision;
  if (state.status !== 'PROPOSED') return fail(INVALID_TRANSITION, `A ${state.status} thread takes no responses.`);
  if (from === state.initiator || !isParticipant(state, from)) {
    return fail(NOT_AUTHORIZED, `${from} is not a participant of this thread.`);
  }
  const slots = message.availableSlots ?? [];
  const outside = firstOutsideWindow(state.constraints, slots);
  if (outside !== undefined) {
    // §3.2 privacy: only slots inside the time window may be sent.
    return fail(INVALID_MESSAGE, `Slot ${outside} lies outside the time window (OACoP §3.2).`, { index: outside });
  }
  // A second answer to the same revision replaces the first: people change their minds.
  const responses = { ...state.responses, [from]: { status: message.status, slots } };
  return ok({ ...state, responses });
}

function confirm(state: ThreadState, from: Did, message: ConfirmCollaboration): Result<ThreadState> {
  if (from !== state.initiator) return fail(NOT_AUTHORIZED, 'Only the initiator confirms (OACoP §3.4.1).');
  const revision = applyRevision(state, message);
  if (!revision.ok) return revision;
  if (state.status === 'CANCELLED') return fail(INVALID_TRANSITION, 'The thread is cancelled.');
  const fits = checkFinalSlot(state, message.finalSlot);
  if (!fits.ok) return fits;
  return ok({ ...state, status: 'CONFIRMED', revision: message.revision, finalSlot: message.finalSlot });
}

function cancel(state: ThreadState, from: Did, message: CancelCollaboration): Result<ThreadState> {
  // §3.5: "Cancellation by initiator or participant."
  if (from !== state.initiator && !isListedParticipant(state, from)) {
    return fail(NOT_AUTHORIZED, `${from} is neither the initiator nor a participant.`);
  }
  const revision = applyRevision(state, message);
  if (!revision.ok) return revision;
  if (state.status === 'CANCELLED') return fail(INVALID_TRANSITION, 'The thread is already cancelled.');
  const finalSlot = state.status === 'CONFIRMED' ? { finalSlot: state.finalSlot } : {};
  return ok({
    threadId: state.threadId,
    initiator: state.initiator,
    object: state.object,
    constraints: state.constraints,
    responses: state.responses,
    status: 'CANCELLED',
    revision: message.revision,
    reason: message.reason,
    cancelledBy: from,
    ...finalSlot,
  });
}

/**
 * A final slot must lie inside the time window and last exactly the object's duration; both are
 * what the participants agreed to be asked about. Shared with the initiator's planner.
 */
export function checkFinalSlot(state: ThreadState, finalSlot: Slot): Result<void> {
  const slot = parseSlot(finalSlot);
  if (slot === undefined) return fail(INVALID_MESSAGE, 'The final slot is not a UTC slot with start before end.');
  const window = state.constraints.timeWindow === undefined ? undefined : parseSlot(state.constraints.timeWindow);
  if (window !== undefined && !contains(window, slot)) {
    return fail(INVALID_MESSAGE, 'The final slot lies outside the time window (OACoP §2.3).');
  }
  const duration = state.object.duration === undefined ? undefined : durationMs(state.object.duration);
  if (duration !== undefined && slot.end - slot.start !== duration) {
    return fail(INVALID_MESSAGE, `The final slot does not last ${state.object.duration}.`);
  }
  return ok(undefined);
}

function checkSender(event: ThreadEvent): Result<void> {
  const { sender } = event.message;
  if (sender !== undefined && sender !== event.from) {
    return fail(NOT_AUTHORIZED, `The message names sender ${sender} but was signed by ${event.from}.`);
  }
  return ok(undefined);
}

/** A duration longer than the window can never be scheduled: the constraint cannot be met (§5). */
function checkProposalFits(message: ProposeCollaboration): Result<void> {
  const window = message.constraints?.timeWindow === undefined ? undefined : parseSlot(message.constraints.timeWindow);
  const duration = message.object.duration === undefined ? undefined : durationMs(message.object.duration);
  if (window !== undefined && duration !== undefined && duration > window.end - window.start) {
    return fail(
      OacopErrorCode.UNSUPPORTED_CONSTRAINT,
      `A ${message.object.duration} meeting cannot fit the time window.`,
    );
  }
  return ok(undefined);
}

const isListedParticipant = (state: ThreadState, did: Did): boolean =>
  state.constraints.participants?.includes(did) ?? false;

// Without a participant list the proposal was open: anyone it reached may answer.
const isParticipant = (state: ThreadState, did: Did): boolean =>
  state.constraints.participants === undefined || state.constraints.participants.includes(did);

// Messages reach here validated (validate-message.ts), so unparseable slots count as outside.
function firstOutsideWindow(constraints: Constraints, slots: readonly Slot[]): number | undefined {
  const window = constraints.timeWindow === undefined ? undefined : parseSlot(constraints.timeWindow);
  if (window === undefined) return undefined;
  const index = slots.findIndex((slot) => {
    const interval = parseSlot(slot);
    return interval === undefined || !contains(window, interval);
  });
  return index < 0 ? undefined : index;
}
