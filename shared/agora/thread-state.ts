// The thread a REQUEST opens (Agora v1.0 "Thread State Machine"): its states as plain,
// serialisable data, and the timeouts, which a pure `tick` applies.
import { assertNever } from '../errors';
import type { MessageType } from './envelope';

export const THREAD_STATUSES = ['OPEN', 'PENDING', 'ACTIVE', 'COMPLETED', 'ERROR'] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

export interface OfferRecord {
  /** The OFFER envelope's `id`, which an ACCEPT's `payload.offer_id` names. */
  readonly offerId: string;
  readonly agent: string;
  readonly receivedAt: number;
  /** `payload.valid_until` in epoch ms, when the offer has one. */
  readonly validUntil?: number;
}

export interface Acceptance {
  readonly offerId: string;
  /** The agent whose offer was accepted: the only one allowed to send RESULT. */
  readonly agent: string;
  readonly acceptId: string;
  readonly at: number;
}

/** Why a thread ended in ERROR, keyed on `type`. */
export type ErrorEnding =
  | {
      readonly type: 'error_message';
      readonly by: string;
      readonly code: string;
      readonly messageId: string;
      readonly from: 'PENDING' | 'ACTIVE';
      readonly at: number;
    }
  | {
      readonly type: 'cancelled';
      readonly by: string;
      readonly messageId: string;
      readonly from: 'ACTIVE';
      readonly at: number;
    }
  | {
      readonly type: 'timeout';
      readonly phase: 'no_offer' | 'no_accept' | 'no_result';
      readonly from: 'PENDING' | 'ACTIVE';
      readonly at: number;
    };

interface Started {
  readonly threadId: string;
  /** The REQUEST's sender. */
  readonly client: string;
  readonly requestId: string;
  readonly requestMessageId: string;
  /**
   * The REQUEST's `payload.intent` (what is asked, e.g. `weather.current`), so a thread can be named
   * by it. Absent in states stored before it was kept.
   */
  readonly intent?: string;
  /** The REQUEST's `recipient.id`; absent for a request any agent may answer. */
  readonly addressedTo?: string;
  readonly requestedAt: number;
  readonly offers: readonly OfferRecord[];
}

export type OpenThread = { readonly status: 'OPEN'; readonly threadId: string };
export type PendingThread = Started & { readonly status: 'PENDING' };
export type ActiveThread = Started & { readonly status: 'ACTIVE'; readonly accepted: Acceptance };
export type CompletedThread = Started & {
  readonly status: 'COMPLETED';
  readonly accepted: Acceptance;
  readonly result: { readonly messageId: string; readonly status: string; readonly at: number };
};
export type ErrorThread = Started & {
  readonly status: 'ERROR';
  readonly accepted?: Acceptance;
  readonly ended: ErrorEnding;
};

export type ThreadState = OpenThread | PendingThread | ActiveThread | CompletedThread | ErrorThread;

export const openThread = (threadId: string): OpenThread => ({ status: 'OPEN', threadId });

export const isTerminal = (state: ThreadState): state is CompletedThread | ErrorThread =>
  state.status === 'COMPLETED' || state.status === 'ERROR';

/**
 * Milliseconds a thread may wait. The spec names two timeouts ("Timeout (no OFFER)",
 * "Timeout (no RESULT)") and calls them configurable; `noAcceptMs` is ours, so a PENDING
 * thread whose offers are never accepted also ends. `Infinity` disables one.
 */
export interface ThreadTimeouts {
  /** PENDING with no OFFER, counted from the REQUEST. */
  readonly noOfferMs: number;
  /** PENDING with offers but no ACCEPT, counted from the REQUEST. */
  readonly noAcceptMs: number;
  /** ACTIVE with no RESULT, counted from the ACCEPT. */
  readonly noResultMs: number;
}

export const DEFAULT_THREAD_TIMEOUTS: ThreadTimeouts = {
  noOfferMs: 5 * 60_000, // the default meta.ttl: a REQUEST nobody answered in its lifetime is dead
  noAcceptMs: 30 * 60_000,
  noResultMs: 30 * 60_000,
};

/**
 * Applies the timeouts at `now`: a PENDING or ACTIVE thread past its limit (strictly: elapsed >
 * limit) moves to ERROR; anything else is returned unchanged (the same object).
 */
export function tick(state: ThreadState, now: number, timeouts: ThreadTimeouts = DEFAULT_THREAD_TIMEOUTS): ThreadState {
  switch (state.status) {
    case 'PENDING': {
      const noOffer = state.offers.length === 0;
      const limit = noOffer ? timeouts.noOfferMs : timeouts.noAcceptMs;
      if (now - state.requestedAt <= limit) return state;
      return {
        ...state,
        status: 'ERROR',
        ended: { type: 'timeout', phase: noOffer ? 'no_offer' : 'no_accept', from: 'PENDING', at: now },
      };
    }
    case 'ACTIVE':
      if (now - state.accepted.at <= timeouts.noResultMs) return state;
      return { ...state, status: 'ERROR', ended: { type: 'timeout', phase: 'no_result', from: 'ACTIVE', at: now } };
    case 'OPEN':
    case 'COMPLETED':
    case 'ERROR':
      return state;
    default:
      return assertNever(state, 'thread state');
  }
}

/** Message types the thread can take next (from someone), for "what can I do now" in the UI. */
export function expectedMessages(state: ThreadState): readonly MessageType[] {
  switch (state.status) {
    case 'OPEN':
      return ['REQUEST'];
    case 'PENDING':
      return state.offers.length === 0 ? ['OFFER', 'ERROR'] : ['OFFER', 'ACCEPT', 'ERROR'];
    case 'ACTIVE':
      return ['RESULT', 'CANCEL', 'ERROR'];
    case 'COMPLETED':
    case 'ERROR':
      return [];
    default:
      return assertNever(state, 'thread state');
  }
}

/**
 * The instant after which {@link tick} ends the thread (it does so at any `now` strictly past
 * it), or null when no timeout applies (OPEN, terminal, or the limit is Infinity). A store
 * indexes it so a sweeper finds the threads due without reading the others.
 */
export function threadDeadline(state: ThreadState, timeouts: ThreadTimeouts = DEFAULT_THREAD_TIMEOUTS): number | null {
  switch (state.status) {
    case 'PENDING': {
      const limit = state.offers.length === 0 ? timeouts.noOfferMs : timeouts.noAcceptMs;
      return Number.isFinite(limit) ? state.requestedAt + limit : null;
    }
    case 'ACTIVE':
      return Number.isFinite(timeouts.noResultMs) ? state.accepted.at + timeouts.noResultMs : null;
    case 'OPEN':
    case 'COMPLETED':
    case 'ERROR':
      return null;
    default:
      return assertNever(state, 'thread state');
  }
}
