// An OACoP participant agent: a person's calendar agent or a resource
// (meeting room, scanner, OACoP §8.2) with its own DID. It receives carried messages addressed to
// it, applies the same state machine as everyone (shared/oacop/scheduling-thread.ts), keeps its
// own view of each thread in the store, and answers through the relay: a ProposalResponse with
// its free slots (exact for trusted DIDs, fuzzy for unknown ones, §6.1), an OACoPReceipt when it
// applied a confirmation or cancellation, an OACoPError (§5) when it refuses.
import type { Envelope } from '@shared/agora/envelope';
import { fail, ok, type ProtocolError, type Result } from '@shared/errors';
import { carrierPayload, readCarrier, type CarriedMessage } from '@shared/oacop/carrier';
import { checkBooking, type RoomConstraints } from '@shared/oacop/check-booking';
import { checkInvitation, type BurnRecord } from '@shared/oacop/check-invitation';
import { durationMs } from '@shared/oacop/duration';
import { OacopErrorCode, OacopLocalErrorCode } from '@shared/oacop/error-codes';
import { fuzzAvailability } from '@shared/oacop/fuzz-availability';
import { mergeIntervals, parseSlot, subtractIntervals, toSlot, type Interval } from '@shared/oacop/intervals';
import type {
  CancelCollaboration,
  ConfirmCollaboration,
  Did,
  ProposeCollaboration,
  Slot,
} from '@shared/oacop/messages';
import { planResponse } from '@shared/oacop/scheduling-actions';
import { openThread, transitionThread, type ThreadState } from '@shared/oacop/scheduling-thread';
import { MINUTE_MS } from '@shared/oacop/utc-time';
import type { AgoraClient } from '../agora/agora-client';
import type { ParticipantStore } from './agent-storage';

/** One bucket per key (the server passes its TokenBucketLimiter, server/http/rate-limit.ts). */
export interface RateLimiter {
  take(key: string): { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };
}

export type BurnInvitationLookup = (txId: string) => BurnRecord | undefined;

/** What an agent's calendar holds besides its stored bookings: fixed meetings, closed hours. */
export interface AgentCalendar {
  busy(from: number, to: number): Interval[];
}

export interface ParticipantOptions {
  readonly client: AgoraClient;
  readonly store: ParticipantStore;
  readonly calendar: AgentCalendar;
  /** A resource's published constraints (§8.2); absent for a person. */
  readonly resource?: RoomConstraints;
  /** The web of trust (§6.2): trusted DIDs need no burn and see exact slots (§6.1). */
  readonly trusts: (did: Did) => Promise<boolean>;
  /** §6.2 "The minimum amount … is configured locally". */
  readonly minimumBurn: string;
  readonly ledger: (txId: string | undefined) => Promise<BurnInvitationLookup>;
  /** §6.1.3: one bucket per unknown DID. */
  readonly limiter: RateLimiter;
  /** §6.1.2 jitter; seeded in the demo and in tests. */
  readonly random: () => number;
  readonly now: () => number;
}

const stateKey = (threadId: string) => `thread:${threadId}`;

export class ParticipantAgent {
  constructor(private readonly options: ParticipantOptions) {}

  get did(): Did {
    return this.options.client.identity.did;
  }

  /** Handles one envelope from the agent's inbox; anything not OACoP is ignored. */
  async handle(envelope: Envelope): Promise<void> {
    if (envelope.recipient?.id !== this.did || envelope.sender.id === this.did) return;
    const read = readCarrier(envelope);
    if (!read.ok) return;
    const message = read.value;
    const from = envelope.sender.id;
    const outcome = await this.#dispatch(from, message);
    if (!outcome.ok && 'threadId' in message) await this.#refuse(envelope, message.threadId, outcome.error);
  }

  async #dispatch(from: Did, message: CarriedMessage): Promise<Result<void>> {
    switch (message.type) {
      case 'ProposeCollaboration':
        return this.#onPropose(from, message);
      case 'ConfirmCollaboration':
        return this.#onConfirm(from, message);
      case 'CancelCollaboration':
        return this.#onCancel(from, message);
      // A participant never initiates here, so answers, tasks, errors and receipts need nothing.
      case 'ProposalResponse':
      case 'AssignTask':
      case 'TaskUpdate':
      case 'OACoPError':
      case 'OACoPReceipt':
        return ok(undefined);
      default:
        return message satisfies never;
    }
  }

  async #onPropose(from: Did, message: ProposeCollaboration): Promise<Result<void>> {
    const known = await this.#load(message.threadId);
    const trusted = await this.options.trusts(from);
    if (!trusted) {
      // §6.1.3: unknown DIDs are rate limited before any work is done for them.
      const taken = this.options.limiter.take(from);
      if (!taken.ok)
        return fail(
          OacopLocalErrorCode.RATE_LIMITED,
          `Too many requests from ${from}; retry in ${taken.retryAfterSeconds} s.`,
          { retryAfterSeconds: taken.retryAfterSeconds },
        );
    }
    let next: Result<ThreadState>;
    if (known === undefined) {
      // §6.2: an invitation from outside the web of trust carries a valid burn, used once.
      const invitation = checkInvitation({
        sender: from,
        threadId: message.threadId,
        webOfTrust: new Set(trusted ? [from] : []),
        minimumBurn: this.options.minimumBurn,
        ...(message.proofOfBurn ? { proofOfBurn: message.proofOfBurn } : {}),
        ledgerLookup: await this.options.ledger(message.proofOfBurn?.txId),
      });
      if (!invitation.ok) return invitation;
      if (!invitation.value.trusted && !(await this.options.store.useBurn(invitation.value.txId, message.threadId))) {
        return fail(OacopErrorCode.PAYMENT_REQUIRED, `Burn ${invitation.value.txId} already paid for another thread.`, {
          reason: 'already_used',
        });
      }
      next = openThread({ from, message });
    } else {
      next = transitionThread(known, { from, message });
    }
    if (!next.ok) return next;
    const state = next.value;
    if (!state.constraints.participants?.includes(this.did) && state.constraints.participants !== undefined) {
      return fail(OacopLocalErrorCode.NOT_AUTHORIZED, 'This agent is not among the participants.');
    }
    const offer = await this.#offer(state, trusted);
    if (!offer.ok) {
      await this.#save(state);
      return offer;
    }
    const planned = planResponse(state, this.did, {
      status: offer.value.length > 0 ? 'INTERESTED' : 'DECLINED',
      availableSlots: offer.value,
    });
    if (!planned.ok) return planned;
    await this.#save(planned.value.next);
    await this.#send(state.initiator, planned.value.message);
    return ok(undefined);
  }

  /** Free slots in the window long enough for the meeting: exact when trusted, fuzzy otherwise (§6.1). */
  async #offer(state: ThreadState, trusted: boolean): Promise<Result<Slot[]>> {
    const window = state.constraints.timeWindow === undefined ? undefined : parseSlot(state.constraints.timeWindow);
    if (window === undefined) return ok([]);
    const duration = state.object.duration === undefined ? 0 : (durationMs(state.object.duration) ?? 0);
    const resource = this.options.resource;
    if (resource?.minDuration !== undefined) {
      const min = durationMs(resource.minDuration);
      if (min !== undefined && duration < min) {
        return fail(
          OacopErrorCode.UNSUPPORTED_CONSTRAINT,
          `This resource is booked for at least ${String(resource.minDuration)}.`,
          { constraint: 'minDuration' },
        );
      }
    }
    const busy = await this.#busy(window, state.threadId);
    const free = subtractIntervals(window, busy).filter(
      (slot) => slot.end - slot.start >= Math.max(duration, MINUTE_MS),
    );
    const slots = free.map(toSlot);
    if (trusted) return ok(slots);
    return fuzzAvailability(slots, {
      random: this.options.random,
      window: state.constraints.timeWindow!,
      minMinutes: Math.max(1, Math.ceil(duration / MINUTE_MS)),
    });
  }

  /** Busy time in the window: the calendar plus every other booking, widened by a resource's cleaning gap. */
  async #busy(window: Interval, exceptThread?: string): Promise<Interval[]> {
    const gap = (this.options.resource?.requiresCleaningGap ?? 0) * MINUTE_MS;
    const bookings = await this.options.store.listBookings(this.did, window.start - gap, window.end + gap);
    const booked = bookings
      .filter((b) => b.threadId !== exceptThread)
      .map((b) => ({ start: b.start - gap, end: b.end + gap }));
    return mergeIntervals([...this.options.calendar.busy(window.start, window.end), ...booked]);
  }

  async #onConfirm(from: Did, message: ConfirmCollaboration): Promise<Result<void>> {
    const known = await this.#load(message.threadId);
    if (known === undefined)
      return fail(OacopErrorCode.STALE_REVISION, 'This agent never saw the proposal; send it again.', {
        local: 0,
        incoming: message.revision,
      });
    const next = transitionThread(known, { from, message });
    if (!next.ok) return next;
    // The initiator decided (§3.4.1): this agent holds the new revision whether or not it can attend.
    await this.#save(next.value);
    const slot = parseSlot(message.finalSlot)!;
    const title = next.value.object.title ?? 'Meeting';
    // Fixed meetings and closed hours are plain busy time; the cleaning gap is kept around bookings only.
    if (this.options.calendar.busy(slot.start, slot.end).length > 0) {
      return fail(OacopErrorCode.CONFLICT, 'The slot is no longer free in this calendar.', { reason: 'busy' });
    }
    const booked = await this.options.store.book(
      {
        owner: this.did,
        threadId: message.threadId,
        start: slot.start,
        end: slot.end,
        revision: message.revision,
        title,
        bookedAt: this.options.now(),
      },
      // Inside the store's transaction: a slot taken meanwhile by another thread is OACOP_CONFLICT.
      (others) =>
        checkBooking({
          busy: others.map((o) => toSlot(o)),
          slot: message.finalSlot,
          constraints: { ...this.options.resource },
        }),
    );
    if (!booked.ok) return booked;
    await this.#send(from, {
      type: 'OACoPReceipt',
      threadId: message.threadId,
      revision: message.revision,
      status: 'CONFIRMED',
    });
    return ok(undefined);
  }

  async #onCancel(from: Did, message: CancelCollaboration): Promise<Result<void>> {
    const known = await this.#load(message.threadId);
    if (known === undefined)
      return fail(OacopErrorCode.STALE_REVISION, 'This agent never saw the proposal.', {
        local: 0,
        incoming: message.revision,
      });
    const next = transitionThread(known, { from, message });
    if (!next.ok) return next;
    await this.#save(next.value);
    await this.options.store.unbook(this.did, message.threadId);
    const receipt: CarriedMessage = {
      type: 'OACoPReceipt',
      threadId: message.threadId,
      revision: message.revision,
      status: 'CANCELLED',
    };
    await this.#send(known.initiator, receipt);
    if (from !== known.initiator) await this.#send(from, receipt);
    return ok(undefined);
  }

  async #refuse(envelope: Envelope, threadId: string, error: ProtocolError): Promise<void> {
    const known = await this.#load(threadId);
    await this.#send(envelope.sender.id, {
      type: 'OACoPError',
      threadId,
      code: error.code as never,
      message: error.message,
      inReplyTo: envelope.id,
      ...(known ? { revision: known.revision } : {}),
      ...(error.details ? { details: { ...error.details } } : {}),
    });
  }

  async #load(threadId: string): Promise<ThreadState | undefined> {
    return (await this.options.store.getAgentState(this.did, stateKey(threadId))) as ThreadState | undefined;
  }

  async #save(state: ThreadState): Promise<void> {
    await this.options.store.putAgentState(this.did, stateKey(state.threadId), state, this.options.now());
  }

  async #send(to: Did, message: CarriedMessage): Promise<void> {
    const { client } = this.options;
    const requestId = `oacop_${globalThis.crypto.randomUUID()}`;
    await client.post(client.sign('REQUEST', carrierPayload(message, requestId) as never, message.threadId, to));
  }
}
