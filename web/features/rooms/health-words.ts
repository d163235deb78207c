// The room health panel in words: the review queue's age, the charts' captions, and short labels
// for reject reasons where a chart has room for a word or two (the long ones: room-words.ts).
import type { RejectReason } from '@shared/aor/reject-reasons';
import { agoInWords } from '@web/lib/operators/operator-words';

const SHORT: Record<RejectReason, string> = {
  no_mic_grant: 'no mic',
  mic_grant_expired: 'mic expired',
  mic_revoked: 'mic revoked',
  message_type_not_allowed: 'wrong type',
  message_limit_exceeded: 'over budget',
  invalid_envelope: 'malformed',
  sender_mismatch: 'impostor',
  room_mismatch: 'wrong room',
  facilitator_rejected: 'declined',
};

/** A reject reason in a word or two, for a chart's axis; unknown reasons as given. */
export function reasonLabel(reason: string): string {
  return reason in SHORT ? SHORT[reason as RejectReason] : reason;
}

/** "Nothing waiting for review", "1 waiting, oldest waiting 3 minutes". */
export function queueInWords(queue: { pending: number; oldestAt: number | null }, now: number): string {
  if (queue.pending === 0 || queue.oldestAt === null) return 'Nothing waiting for review';
  const age = agoInWords(queue.oldestAt, now).replace(/ ago$/, '');
  return `${queue.pending} waiting, oldest waiting ${age === 'just now' ? 'a moment' : age}`;
}

/** The messages-per-minute chart's caption: the hour's total and its busiest minute. */
export function trafficInWords(perMinute: readonly { messages: number }[]): string {
  const total = perMinute.reduce((sum, m) => sum + m.messages, 0);
  if (total === 0) return 'No messages in the last hour';
  const busiest = Math.max(...perMinute.map((m) => m.messages));
  return `${plural(total, 'message')} in the last hour, at most ${busiest} in a minute`;
}

/** The decisions chart's caption: "12 approved, 5 rejected (3 no mic, 2 over budget)". */
export function decisionsInWords(decisions: {
  approved: number;
  rejected: readonly { reason: string; count: number }[];
}): string {
  const rejected = decisions.rejected.reduce((sum, r) => sum + r.count, 0);
  if (decisions.approved === 0 && rejected === 0) return 'No candidate decided in the last hour';
  const reasons = decisions.rejected.map((r) => `${r.count} ${reasonLabel(r.reason)}`).join(', ');
  return `${decisions.approved} approved, ${rejected} rejected${rejected ? ` (${reasons})` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
