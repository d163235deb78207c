// A mic grant as a live object: time left, budget left, and whether (and why) it has ended.
// Pure, with the clock passed in, so the countdown is tested without timers.
import { revokeReasonInWords } from '@web/lib/room-words';

export interface GrantLike {
  readonly maxMessages: number;
  readonly spent: number;
  /** Unix seconds. */
  readonly expiresAt: number;
  readonly endedAt: number | null;
  readonly endReason: string | null;
}

/** "2:05" under an hour, "1 h 02 min" above, "0:00" once past. */
export function formatCountdown(secondsLeft: number): string {
  const s = Math.max(0, Math.ceil(secondsLeft));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The same, read out: "2 minutes 5 seconds left". */
export function countdownInWords(secondsLeft: number): string {
  const s = Math.max(0, Math.ceil(secondsLeft));
  if (s === 0) return 'time is up';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts = [
    h ? `${h} hour${h === 1 ? '' : 's'}` : '',
    m ? `${m} minute${m === 1 ? '' : 's'}` : '',
    !h && sec ? `${sec} second${sec === 1 ? '' : 's'}` : '',
  ];
  return `${parts.filter(Boolean).join(' ')} left`;
}

export type GrantState =
  | { readonly live: true; readonly secondsLeft: number; readonly budgetLeft: number }
  | { readonly live: false; readonly reason: string };

/** Live, or ended and why: the server's end, else time up, else budget used (as the gateway decides). */
export function grantState(g: GrantLike, nowMs: number): GrantState {
  if (g.endedAt !== null) return { live: false, reason: g.endReason ?? 'ended' };
  const secondsLeft = g.expiresAt - nowMs / 1000;
  if (secondsLeft <= 0) return { live: false, reason: 'mic_grant_expired' };
  const budgetLeft = Math.max(0, g.maxMessages - g.spent);
  if (budgetLeft === 0) return { live: false, reason: 'message_limit_exceeded' };
  return { live: true, secondsLeft, budgetLeft };
}

/** How a grant ended, in words. */
export function grantEndInWords(reason: string): string {
  switch (reason) {
    case 'mic_grant_expired':
      return 'time ran out';
    case 'message_limit_exceeded':
      return 'budget used up';
    case 'mic_revoked':
      return 'revoked';
    default:
      if (reason.startsWith('revoked: ')) return `revoked (${revokeReasonInWords(reason.slice(9))})`;
      return /^[a-z0-9_]+$/.test(reason) ? revokeReasonInWords(reason) : `revoked: ${reason}`;
  }
}
