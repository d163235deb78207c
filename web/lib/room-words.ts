// What the console says about rooms, in words: reject reasons, API error codes, times. Shared by
// the rooms and the inbox, which acts on rooms' review items and questions.
import type { RejectReason } from '@shared/aor/reject-reasons';
import { REJECT_WORDS, rejectReasonInWords } from '@shared/aor/reject-words';
import { errorInWords } from '@web/lib/api/error-words';
import { ApiError } from '@web/lib/api/http';
import { relative } from '@web/lib/time-words';

export { rejectReasonInWords };

// A facilitator's revoke reason is free text (AOR §5.4); these are the ones the demo facilitator
// and the spec's example use.
const REVOKE_WORDS: Readonly<Record<string, string>> = {
  task_complete: 'the task is done',
  task_timeout: 'the task took too long',
  task_cancelled: 'the task was called off',
};

/**
 * Why a mic was revoked or a grant ended, in words: a normal finish is not a rejection. A code
 * nobody has words for reads with spaces for underscores ("custom reason").
 */
export function revokeReasonInWords(reason: string): string {
  if (REVOKE_WORDS[reason]) return REVOKE_WORDS[reason];
  if (reason in REJECT_WORDS) return REJECT_WORDS[reason as RejectReason];
  return /^[a-z0-9_]+$/.test(reason) ? reason.replace(/_/g, ' ') : reason;
}

/** Words for a failed room action, keyed on the server's stable codes. */
export function roomErrorInWords(error: unknown): string {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'CONFLICT':
        return error.message || 'That already exists or was already decided.';
      case 'INVALID_REQUEST':
        return errorInWords(error);
      case 'FORBIDDEN':
        return 'Only facilitators may do this. Ask an administrator for a facilitator invitation.';
      case 'UNAUTHORIZED':
        return 'Your session ended. Sign in again.';
      case 'NOT_FOUND':
        return error.message || 'There is no such room.';
      case 'NETWORK_ERROR':
        return error.message;
      default:
        return errorInWords(error);
    }
  }
  return errorInWords(error);
}

/** "just now", "12 seconds ago", "5 minutes ago": the one time formatter's relative form. */
export const relativeTime = (thenMs: number, nowMs: number): string => relative(Math.min(thenMs, nowMs), nowMs);

/** The host of an http(s) URL, or null for anything else (javascript:, data:, malformed). */
export function safeLinkHost(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : null;
  } catch {
    return null;
  }
}

export const clockTime = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** A control message's kind in words ("the gateway refused it"), for the row badge; the term goes in the tooltip. */
export function controlKindInWords(type: string | null, reason: unknown): string {
  switch (type) {
    case 'mic_grant':
      return 'mic granted';
    case 'mic_revoke':
      return 'mic taken back';
    case 'reject':
      return reason === 'facilitator_rejected' ? 'declined by a facilitator' : 'refused by the gateway';
    case null:
      return 'unknown';
    default:
      return type;
  }
}
