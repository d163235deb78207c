// OACoP error codes in words for the operator (server/README.md "OACoP read models": how to show
// each), shared by the scheduling and tasks screens.
const WORDS: Readonly<Record<string, string>> = {
  OACOP_STALE_REVISION:
    'They hold a different revision of this thread than the one you acted on. The view has been refreshed; look again and retry.',
  OACOP_CONFLICT:
    'That slot is no longer free for everyone required: someone did not offer it or booked it in the meantime. Pick another slot.',
  OACOP_PAYMENT_REQUIRED: 'They only accept invitations from their web of trust or with a proof of burn.',
  OACOP_UNSUPPORTED_CONSTRAINT: 'A constraint cannot be met (for a room: its minimum duration or cleaning gap).',
  OACOP_INVALID_ICAL: 'This file is not a calendar this console can read (iCalendar, RFC 5545).',
  OACOP_INVALID_MESSAGE: 'The message was malformed and refused.',
  OACOP_INVALID_TRANSITION: 'The thread is not in a state that allows this.',
  OACOP_NOT_AUTHORIZED: 'Only the initiator of this thread may do that.',
  OACOP_TASK_CYCLE: 'The parents or dependencies would form a cycle, so the task could never finish.',
  OACOP_RATE_LIMITED: 'They answer unknown senders only a few times a minute. Wait, then retry.',
  NO_KEY: 'This browser holds no operator key. Restore your backup to sign.',
};

/** The sentence for `code`, with the server's own message after it when there is one. */
export function oacopErrorWords(code: string, message?: string): string {
  const words = WORDS[code];
  if (words === undefined) return message ?? code;
  return message && message !== words ? `${words} (${message})` : words;
}
