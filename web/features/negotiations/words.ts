// How the negotiation screens say things: state names, countdowns, error codes in words.
import { ApiError } from '@web/lib/api/http';
import { pointersInSentence } from '@web/lib/negotiation/term-words';
import type { NegotiationStateName } from '@web/lib/api/negotiations-list';

export const STATE_WORDS: Readonly<Record<NegotiationStateName, string>> = {
  OPEN: 'Open',
  PROPOSED: 'Proposed',
  COUNTERED: 'Countered',
  ACCEPTED: 'Accepted',
  REJECTED: 'Rejected',
  EXPIRED: 'Expired',
  WITHDRAWN: 'Withdrawn',
};

export const STATE_TONE: Readonly<Record<NegotiationStateName, string>> = {
  OPEN: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  PROPOSED: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  COUNTERED: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  ACCEPTED: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  REJECTED: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
  EXPIRED: 'bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  WITHDRAWN: 'bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
};

/** `valid_until` as a countdown: "4 min 05 s left", "2 h 10 min left", or "lapsed". */
export function countdown(validUntilMs: number, nowMs: number): string {
  const left = validUntilMs - nowMs;
  // Live up to and including valid_until (decisions-negotiation §10).
  if (left < 0) return 'lapsed';
  const s = Math.floor(left / 1000);
  if (s < 60) return `${s} s left`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s left`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${String(m % 60).padStart(2, '0')} min left`;
  return `${Math.floor(h / 24)} d left`;
}

const CODES: Readonly<Record<string, string>> = {
  NOT_YOUR_TURN: 'It is the other party’s turn.',
  STALE_PREVIOUS_PROPOSAL: 'The negotiation moved on meanwhile; look at the latest round and try again.',
  STALE_PROPOSAL: 'The negotiation moved on meanwhile; look at the latest round and try again.',
  PROPOSAL_EXPIRED: 'The latest proposal has lapsed.',
  NEGOTIATION_TERMINAL: 'This negotiation has ended.',
  MAX_ROUNDS_EXCEEDED: 'No rounds are left.',
  CLOCK_SKEW: 'This computer’s clock is too far from the server’s. Fix the clock and try again.',
  CATEGORY_NOT_SUPPORTED: 'The server does not negotiate in this category.',
  PARTIES_INVALID: 'A negotiation needs two different parties, each an Ed25519 did:key.',
  INVALID_DOCUMENT: 'The server refused the document as malformed.',
  NO_KEY: 'This browser holds no operator key to sign with.',
};

export function negotiationErrorInWords(error: unknown): string {
  if (error instanceof ApiError)
    return CODES[error.code]
      ? `${CODES[error.code]} (${error.code})`
      : `${pointersInSentence(error.message)} (${error.code})`;
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && CODES[error.code])
    return CODES[error.code]!;
  return error instanceof Error ? pointersInSentence(error.message) : 'Something went wrong.';
}
