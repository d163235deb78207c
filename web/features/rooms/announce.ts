// What the timeline's polite live region says about new messages: one
// sentence per burst, never one per message, so a busy room does not flood a screen reader.
// Pure, so the wording is tested without timers; the batching window is in use-announcer.ts.

export interface Arrival {
  readonly from: string;
  readonly type: string | null;
  /** The message as one line of plain text. */
  readonly text: string;
}

const MAX_TEXT = 160;
const plural = (n: number, word: string) => `${n} new ${word}${n === 1 ? '' : 's'}`;

/**
 * One message: who, what kind and its text. Several: how many, from whom (most first), and
 * whether a question waits for an answer.
 */
export function announcementFor(arrivals: readonly Arrival[]): string {
  if (arrivals.length === 0) return '';
  if (arrivals.length === 1) {
    const [a] = arrivals as [Arrival];
    const text = a.text.length > MAX_TEXT ? `${a.text.slice(0, MAX_TEXT)}…` : a.text;
    return `${a.from} ${a.type ?? 'message'}: ${text}`;
  }
  const bySender = new Map<string, number>();
  for (const a of arrivals) bySender.set(a.from, (bySender.get(a.from) ?? 0) + 1);
  const senders = [...bySender.entries()].sort((x, y) => y[1] - x[1]);
  const askers = [...new Set(arrivals.filter((a) => a.type === 'clarifying_question').map((a) => a.from))];
  const question = askers.length ? `, with a question from ${askers.join(' and ')}` : '';
  if (senders.length === 1) return `${plural(arrivals.length, 'message')} from ${senders[0]![0]}${question}`;
  const shown = senders.slice(0, 3).map(([from, n]) => `${n} from ${from}`);
  const others = senders.slice(3).reduce((sum, [, n]) => sum + n, 0);
  return `${plural(arrivals.length, 'message')}: ${shown.join(', ')}${others ? `, ${others} from others` : ''}${question}`;
}
