// A gateway reject reason (AOR §5.7) in words, for people (the console) and for models (the MCP
// tools' answers, docs/decisions-mcp.md §4): one wording wherever a reason is explained.
import type { RejectReason } from './reject-reasons';

export const REJECT_WORDS: Readonly<Record<RejectReason, string>> = {
  no_mic_grant: 'had no mic for this task',
  mic_grant_expired: 'the mic for this task had expired',
  mic_revoked: 'the mic for this task was revoked',
  message_type_not_allowed: 'this message type is not allowed by the mic grant',
  message_limit_exceeded: 'the mic grant’s message budget is used up',
  invalid_envelope: 'the message was malformed (not a valid AOR envelope)',
  sender_mismatch: 'the message claimed to come from another agent',
  room_mismatch: 'the message named a different room than its topic',
  facilitator_rejected: 'a facilitator declined it',
};

/** A reject reason in words; unknown reasons (other implementations) are shown as given. */
export function rejectReasonInWords(reason: string): string {
  return Object.hasOwn(REJECT_WORDS, reason) ? REJECT_WORDS[reason as RejectReason] : `rejected (${reason})`;
}
