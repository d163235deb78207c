// Agora v1.0 "State Transitions" as a pure function. Envelopes reaching it have passed
// checkIncoming (schema, signature, window, replay); this decides only whether the message is
// allowed in the thread now and from that sender. Checks run in a fixed order: thread id,
// state, sender's role, recipient, request_id, then the message's own rules.
// Decisions behind each rule: docs/decisions-agora.md.
import { assertNever, ok } from '../errors';
import type { Result } from '../errors';
import type { Envelope, EnvelopeOf } from './envelope';
import { timestampMs } from './fields';
import { agoraFail } from './reject-reasons';
import type { AgoraError, AgoraFailure } from './reject-reasons';
import { isTerminal, tick } from './thread-state';
import type { ActiveThread, OfferRecord, PendingThread, ThreadState, ThreadTimeouts } from './thread-state';

export type ThreadEvent =
  | { readonly type: 'message'; readonly envelope: Envelope; readonly now: number }
  | { readonly type: 'tick'; readonly now: number; readonly timeouts?: ThreadTimeouts };

export type ThreadResult = Result<ThreadState, AgoraError>;

export function transition(state: ThreadState, event: ThreadEvent): ThreadResult {
  switch (event.type) {
    case 'tick':
      return ok(tick(state, event.now, event.timeouts));
    case 'message':
      return applyMessage(state, event.envelope, event.now);
    default:
      return assertNever(event, 'thread event');
  }
}

function applyMessage(state: ThreadState, envelope: Envelope, now: number): ThreadResult {
  if (envelope.thread.id !== state.threadId) {
    return agoraFail('thread_mismatch', `The message belongs to thread ${envelope.thread.id}, not ${state.threadId}.`);
  }
  if (state.status === 'OPEN') {
    if (envelope.type !== 'REQUEST')
      return agoraFail('thread_not_started', 'A thread starts with a REQUEST.', { type: envelope.type });
    return ok({
      status: 'PENDING',
      threadId: state.threadId,
      client: envelope.sender.id,
      requestId: envelope.payload.request_id,
      requestMessageId: envelope.id,
      intent: envelope.payload.intent,
      ...(envelope.recipient === undefined ? {} : { addressedTo: envelope.recipient.id }),
      requestedAt: now,
      offers: [],
    });
  }
  // "*any* | ERROR message | ERROR | Terminal state": nothing leaves COMPLETED or ERROR.
  if (isTerminal(state)) return agoraFail('thread_closed', `The thread is ${state.status}.`, { status: state.status });

  switch (envelope.type) {
    case 'REQUEST':
      return agoraFail('thread_already_started', 'The thread already has its REQUEST.');
    case 'OFFER':
      return applyOffer(state, envelope, now);
    case 'ACCEPT':
      return applyAccept(state, envelope, now);
    case 'RESULT':
      return applyResult(state, envelope, now);
    case 'CANCEL':
      return applyCancel(state, envelope, now);
    case 'ERROR':
      return applyError(state, envelope, now);
    default:
      return assertNever(envelope, 'message type');
  }
}

type Live = PendingThread | ActiveThread;

function applyOffer(state: Live, envelope: EnvelopeOf<'OFFER'>, now: number): ThreadResult {
  // "PENDING | Agent sends OFFER | PENDING | Multiple OFFERs allowed"
  if (state.status !== 'PENDING')
    return agoraFail('thread_not_pending', 'OFFERs are taken only while the thread is PENDING.');
  const agent = envelope.sender.id;
  if (agent === state.client) return agoraFail('client_cannot_offer', 'The client cannot offer on its own REQUEST.');
  if (state.addressedTo !== undefined && agent !== state.addressedTo) {
    return agoraFail('not_a_party', 'The REQUEST was addressed to another agent.', { sender: agent });
  }
  const refused = checkRecipient(state, envelope) ?? checkRequestId(state, envelope.payload.request_id);
  if (refused) return refused;
  if (state.offers.some((offer) => offer.offerId === envelope.id)) {
    return agoraFail('duplicate_message', `OFFER ${envelope.id} is already in the thread.`);
  }
  const { valid_until: validUntil } = envelope.payload;
  const offer: OfferRecord = {
    offerId: envelope.id,
    agent,
    receivedAt: now,
    ...(validUntil === undefined ? {} : { validUntil: timestampMs(validUntil) }),
  };
  return ok({ ...state, offers: [...state.offers, offer] });
}

function applyAccept(state: Live, envelope: EnvelopeOf<'ACCEPT'>, now: number): ThreadResult {
  // "One ACCEPT per thread"
  if (state.status === 'ACTIVE') return agoraFail('duplicate_accept', 'The thread already has its ACCEPT.');
  if (envelope.sender.id !== state.client)
    return agoraFail('not_the_client', 'Only the client that sent the REQUEST may ACCEPT.');
  const refused = checkRequestId(state, envelope.payload.request_id);
  if (refused) return refused;
  const found = findAcceptedOffer(state, envelope);
  if (!found.ok) return found;
  const offer = found.value;
  // "offer.valid_until … Client checks before ACCEPT": we check again, at the receiver's clock.
  if (offer.validUntil !== undefined && now > offer.validUntil) {
    return agoraFail(
      'offer_expired',
      `OFFER ${offer.offerId} expired at ${new Date(offer.validUntil).toISOString()}.`,
      {
        offerId: offer.offerId,
      },
    );
  }
  return ok({
    ...state,
    status: 'ACTIVE',
    accepted: { offerId: offer.offerId, agent: offer.agent, acceptId: envelope.id, at: now },
  });
}

/**
 * Which offer an ACCEPT takes: `payload.offer_id` when given (the OFFER envelope's id); else
 * the latest offer from `recipient.id`; else, when only one agent has offered, its latest one.
 */
function findAcceptedOffer(state: PendingThread, envelope: EnvelopeOf<'ACCEPT'>): Result<OfferRecord, AgoraError> {
  const { offer_id: offerId } = envelope.payload;
  const recipient = envelope.recipient?.id;
  if (offerId !== undefined) {
    const offer = state.offers.find((candidate) => candidate.offerId === offerId);
    if (offer === undefined) return agoraFail('offer_not_found', `No OFFER ${offerId} in this thread.`, { offerId });
    if (recipient !== undefined && recipient !== offer.agent) {
      return agoraFail(
        'recipient_mismatch',
        'The ACCEPT is addressed to an agent other than the one that made the offer.',
      );
    }
    return ok(offer);
  }
  const agents = new Set(state.offers.map((offer) => offer.agent));
  const agent = recipient ?? (agents.size === 1 ? [...agents][0] : undefined);
  if (agent === undefined) {
    return state.offers.length === 0
      ? agoraFail('offer_not_found', 'There is no OFFER to accept yet.')
      : agoraFail('offer_ambiguous', 'Several agents offered: name one with payload.offer_id or recipient.');
  }
  const offer = state.offers.findLast((candidate) => candidate.agent === agent);
  if (offer === undefined)
    return agoraFail('offer_not_found', 'The recipient made no OFFER in this thread.', { recipient: agent });
  return ok(offer);
}

function applyResult(state: Live, envelope: EnvelopeOf<'RESULT'>, now: number): ThreadResult {
  // "ACTIVE | Agent sends RESULT | COMPLETED"
  if (state.status !== 'ACTIVE')
    return agoraFail('thread_not_active', 'A RESULT is taken only while the thread is ACTIVE.');
  if (envelope.sender.id !== state.accepted.agent) {
    return agoraFail('not_the_accepted_agent', 'Only the agent whose offer was accepted may send the RESULT.');
  }
  const refused = checkRecipient(state, envelope) ?? checkRequestId(state, envelope.payload.request_id);
  if (refused) return refused;
  return ok({
    ...state,
    status: 'COMPLETED',
    result: { messageId: envelope.id, status: envelope.payload.status, at: now },
  });
}

function applyCancel(state: Live, envelope: EnvelopeOf<'CANCEL'>, now: number): ThreadResult {
  // "ACTIVE | Client sends CANCEL | ERROR"
  if (state.status !== 'ACTIVE')
    return agoraFail('thread_not_active', 'CANCEL applies to an ACTIVE thread; while PENDING, send ERROR.');
  if (envelope.sender.id !== state.client) return agoraFail('not_the_client', 'Only the client may CANCEL.');
  const refused = checkRecipient(state, envelope) ?? checkRequestId(state, envelope.payload.request_id);
  if (refused) return refused;
  return ok({
    ...state,
    status: 'ERROR',
    ended: { type: 'cancelled', by: envelope.sender.id, messageId: envelope.id, from: 'ACTIVE', at: now },
  });
}

function applyError(state: Live, envelope: EnvelopeOf<'ERROR'>, now: number): ThreadResult {
  // "*any* | ERROR message | ERROR", from either party of the thread.
  const sender = envelope.sender.id;
  if (sender !== state.client && sender !== boundAgent(state)) {
    return agoraFail('not_a_party', 'Only the client or the agent bound to the thread may end it with ERROR.', {
      sender,
    });
  }
  const { request_id: requestId } = envelope.payload;
  const refused =
    checkRecipient(state, envelope) ?? (requestId === undefined ? undefined : checkRequestId(state, requestId));
  if (refused) return refused;
  return ok({
    ...state,
    status: 'ERROR',
    ended: {
      type: 'error_message',
      by: sender,
      code: envelope.payload.code,
      messageId: envelope.id,
      from: state.status,
      at: now,
    },
  });
}

/** The agent a thread is bound to: the accepted one, else the one the REQUEST named. */
const boundAgent = (state: Live): string | undefined =>
  state.status === 'ACTIVE' ? state.accepted.agent : state.addressedTo;

/** A `recipient`, when present, must be the sender's counterparty (when that is known). */
function checkRecipient(state: Live, envelope: Envelope): AgoraFailure | undefined {
  const recipient = envelope.recipient?.id;
  const counterparty = envelope.sender.id === state.client ? boundAgent(state) : state.client;
  if (recipient === undefined || counterparty === undefined || recipient === counterparty) return undefined;
  return agoraFail('recipient_mismatch', 'The message is addressed to someone who is not the other party.', {
    recipient,
  });
}

function checkRequestId(state: Live, requestId: string): AgoraFailure | undefined {
  if (requestId === state.requestId) return undefined;
  return agoraFail('request_id_mismatch', `request_id must be ${state.requestId}.`, { requestId });
}
