// The console's read model of OACoP scheduling threads, as a pure fold over carried messages in
// relay order (docs/decisions-oacop.md §A3). It applies the same state machine as every agent
// (scheduling-thread.ts), so a stale or unauthorized message shows as refused with the code an
// agent would send; it adds what only an observer of all messages sees: each participant's state
// and revision, the log, and the best slot (intersect-availability.ts).
import { canonicalize } from '../crypto/jcs';
import type { ProtocolError } from '../errors';
import type { CarriedMessage } from './carrier';
import { intersectAvailability, type AvailabilityResult } from './intersect-availability';
import type { Did, ProposalStatus, Slot } from './messages';
import { openThread, transitionThread, type ThreadMessage, type ThreadState } from './scheduling-thread';

/** One carried message as the relay stored it: `from` signed the envelope, `to` is its recipient. */
export interface CarrierEvent {
  readonly seq: number;
  readonly envelopeId: string;
  readonly from: Did;
  /** Absent (or undefined before it is serialised) when the envelope named no recipient. */
  readonly to?: Did | undefined;
  readonly receivedAt: number;
  readonly message: CarriedMessage;
}

export interface LogEntry {
  readonly seq: number;
  readonly envelopeId: string;
  readonly at: number;
  readonly from: Did;
  /** Absent (or undefined before it is serialised) when the envelope named no recipient. */
  readonly to?: Did | undefined;
  readonly type: CarriedMessage['type'];
  readonly revision?: number;
  /** `copy`: the same message fanned out to another participant. */
  readonly outcome: 'applied' | 'copy' | 'refused' | 'noted';
  readonly error?: Pick<ProtocolError, 'code' | 'message'>;
}

export type ParticipantPhase = 'INVITED' | ProposalStatus | 'CONFIRMED' | 'CANCELLED';

export interface ParticipantView {
  readonly did: Did;
  readonly required: boolean;
  readonly phase: ParticipantPhase;
  /** The highest revision this participant has shown it holds (answer, receipt, error, cancel); 0 before any. */
  readonly revision: number;
  readonly response?: {
    readonly status: ProposalStatus;
    readonly slots: readonly Slot[];
    readonly respondingToRevision: number;
  };
  /** The last OACoPError this participant sent. */
  readonly lastError?: {
    readonly code: string;
    readonly message: string;
    readonly revision?: number;
    readonly at: number;
  };
}

export interface SchedulingThreadView {
  readonly threadId: string;
  readonly state: ThreadState;
  readonly participants: readonly ParticipantView[];
  /** Common slots of the current answers (every required participant, most optional ones), or why not. */
  readonly suggestion: AvailabilityResult | { readonly error: Pick<ProtocolError, 'code' | 'message'> } | null;
  readonly log: readonly LogEntry[];
  readonly openedAt: number;
  readonly updatedAt: number;
}

interface Entry {
  state: ThreadState;
  participants: Map<Did, ParticipantView>;
  log: LogEntry[];
  seen: Set<string>;
  openedAt: number;
  updatedAt: number;
}

const SUGGESTION_LIMIT = 5;

export class SchedulingProjection {
  readonly #threads = new Map<string, Entry>();
  /** Carried messages for threads this projection never saw proposed (late joiners). */
  orphans = 0;

  apply(event: CarrierEvent): void {
    const { message } = event;
    switch (message.type) {
      case 'ProposeCollaboration':
      case 'ProposalResponse':
      case 'ConfirmCollaboration':
      case 'CancelCollaboration':
        this.#applyThreadMessage(event, message);
        return;
      case 'OACoPError':
      case 'OACoPReceipt':
        this.#note(event, message);
        return;
      case 'AssignTask':
      case 'TaskUpdate':
        return;
      default:
        message satisfies never;
    }
  }

  get(threadId: string): SchedulingThreadView | undefined {
    const entry = this.#threads.get(threadId);
    return entry && view(threadId, entry);
  }

  /** Newest activity first. */
  list(): SchedulingThreadView[] {
    return [...this.#threads.entries()]
      .map(([id, entry]) => view(id, entry))
      .sort((a, b) => b.updatedAt - a.updatedAt || a.threadId.localeCompare(b.threadId));
  }

  #applyThreadMessage(event: CarrierEvent, message: ThreadMessage): void {
    const entry = this.#threads.get(message.threadId);
    if (entry === undefined) {
      if (message.type !== 'ProposeCollaboration') {
        this.orphans++;
        return;
      }
      const opened = openThread({ from: event.from, message });
      if (!opened.ok) return; // Nothing to show: the thread never opened (its proposer gets the OACoPError).
      const fresh: Entry = {
        state: opened.value,
        participants: new Map(),
        log: [],
        seen: new Set(),
        openedAt: event.receivedAt,
        updatedAt: event.receivedAt,
      };
      this.#threads.set(message.threadId, fresh);
      fresh.seen.add(fingerprint(event));
      invite(fresh);
      fresh.log.push(entryFor(event, 'applied'));
      return;
    }
    entry.updatedAt = event.receivedAt;
    // A proposal, confirmation or cancellation goes to each participant in its own envelope.
    const print = fingerprint(event);
    if (message.type !== 'ProposalResponse' && entry.seen.has(print)) {
      entry.log.push(entryFor(event, 'copy'));
      return;
    }
    const next = transitionThread(entry.state, { from: event.from, message });
    if (!next.ok) {
      entry.log.push(entryFor(event, 'refused', next.error));
      return;
    }
    entry.seen.add(print);
    entry.state = next.value;
    entry.log.push(entryFor(event, 'applied'));
    switch (message.type) {
      case 'ProposeCollaboration':
        invite(entry);
        return;
      case 'ProposalResponse': {
        const slots = message.availableSlots ?? [];
        update(entry, event.from, (p) => ({
          ...p,
          phase: message.status,
          revision: Math.max(p.revision, message.respondingToRevision),
          response: { status: message.status, slots, respondingToRevision: message.respondingToRevision },
        }));
        return;
      }
      case 'ConfirmCollaboration':
        return;
      case 'CancelCollaboration':
        // A cancelling participant holds the cancelled revision by definition.
        if (event.from !== entry.state.initiator)
          update(entry, event.from, (p) => ({
            ...p,
            phase: 'CANCELLED',
            revision: Math.max(p.revision, message.revision),
          }));
        return;
      default:
        message satisfies never;
    }
  }

  #note(event: CarrierEvent, message: Extract<CarriedMessage, { type: 'OACoPError' | 'OACoPReceipt' }>): void {
    const entry = this.#threads.get(message.threadId);
    if (entry === undefined) {
      this.orphans++;
      return;
    }
    entry.updatedAt = event.receivedAt;
    entry.log.push(entryFor(event, 'noted'));
    if (!entry.participants.has(event.from)) return;
    if (message.type === 'OACoPReceipt') {
      update(entry, event.from, (p) =>
        message.revision < p.revision ? p : { ...p, phase: message.status, revision: message.revision },
      );
    } else {
      update(entry, event.from, (p) => ({
        ...p,
        revision: Math.max(p.revision, message.revision ?? 0),
        lastError: {
          code: message.code,
          message: message.message,
          at: event.receivedAt,
          ...(message.revision === undefined ? {} : { revision: message.revision }),
        },
      }));
    }
  }
}

function invite(entry: Entry): void {
  const { constraints, initiator } = entry.state;
  const required = new Set(constraints.requiredParticipants ?? []);
  const next = new Map<Did, ParticipantView>();
  for (const did of constraints.participants ?? []) {
    if (did === initiator) continue;
    const before = entry.participants.get(did);
    next.set(did, {
      did,
      required: required.has(did),
      phase: 'INVITED',
      revision: before?.revision ?? 0,
      ...(before?.lastError ? { lastError: before.lastError } : {}),
    });
  }
  entry.participants = next;
}

function update(entry: Entry, did: Did, change: (p: ParticipantView) => ParticipantView): void {
  const before = entry.participants.get(did) ?? { did, required: false, phase: 'INVITED' as const, revision: 0 };
  entry.participants.set(did, change(before));
}

const fingerprint = (event: CarrierEvent): string => `${event.from} ${canonicalize(event.message)}`;

function entryFor(event: CarrierEvent, outcome: LogEntry['outcome'], error?: ProtocolError): LogEntry {
  const { message } = event;
  const revision =
    'revision' in message
      ? message.revision
      : 'respondingToRevision' in message
        ? message.respondingToRevision
        : undefined;
  return {
    seq: event.seq,
    envelopeId: event.envelopeId,
    at: event.receivedAt,
    from: event.from,
    to: event.to,
    type: message.type,
    ...(revision === undefined ? {} : { revision }),
    outcome,
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  };
}

function view(threadId: string, entry: Entry): SchedulingThreadView {
  return {
    threadId,
    state: entry.state,
    participants: [...entry.participants.values()],
    suggestion: suggest(entry.state),
    log: entry.log,
    openedAt: entry.openedAt,
    updatedAt: entry.updatedAt,
  };
}

/** The best slots over the current answers; DECLINED answers offer nothing. */
function suggest(state: ThreadState): SchedulingThreadView['suggestion'] {
  const window = state.constraints.timeWindow;
  const duration = state.object.duration;
  if (window === undefined || duration === undefined || state.status !== 'PROPOSED') return null;
  const answers = new Map<Did, readonly Slot[]>();
  for (const did of state.constraints.participants ?? Object.keys(state.responses)) {
    if (did === state.initiator) continue;
    const response = state.responses[did];
    answers.set(did, response === undefined || response.status === 'DECLINED' ? [] : response.slots);
  }
  const result = intersectAvailability({
    window,
    duration,
    participants: answers,
    required: state.constraints.requiredParticipants ?? [],
    limit: SUGGESTION_LIMIT,
  });
  return result.ok ? result.value : { error: { code: result.error.code, message: result.error.message } };
}
