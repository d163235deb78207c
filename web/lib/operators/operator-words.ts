// Operators in words: a name or "Operator …K7Qm2x" (decisions-web.md §46), initials for an avatar, who is on a page, and who
// won a race ("Ana approved this 12 seconds ago"). Names are agent-free text typed by operators,
// checked by the server (shared/contract/operator-name.ts), and still rendered as text only.
import type { DecidedDetail, PresentOperator } from '@shared/contract/operators';
import { unnamedOperator } from '@shared/contract/operator-name';

/** The name an operator gave, else "Operator …K7Qm2x". */
export const displayName = (o: { readonly did: string; readonly name: string | null }): string =>
  o.name ?? unnamedOperator(o.did);

/** Up to two letters: the first of the first and last words of a name, else the did's last two characters. */
export function initials(o: { readonly did: string; readonly name: string | null }): string {
  if (o.name === null) return o.did.slice(-2);
  const words = o.name.split(/\s+/u).filter(Boolean);
  const first = [...(words[0] ?? '?')][0] ?? '?';
  const last = words.length > 1 ? ([...words[words.length - 1]!][0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** "just now", "12 seconds ago", "1 minute ago", "3 hours ago", "2 days ago". */
export function agoInWords(thenMs: number, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'} ago`;
  if (s < 2) return 'just now';
  if (s < 60) return unit(s, 'second');
  const m = Math.floor(s / 60);
  if (m < 60) return unit(m, 'minute');
  const h = Math.floor(m / 60);
  if (h < 48) return unit(h, 'hour');
  return unit(Math.floor(h / 24), 'day');
}

/** "Ana", "Ana and Ben", "Ana, Ben and Cy", "Ana, Ben and 3 others". */
export function namesInWords(names: readonly string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length <= shown) return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const rest = names.length - (shown - 1);
  return `${names.slice(0, shown - 1).join(', ')} and ${rest} others`;
}

/**
 * Who else is on the page, from `me`'s view: "Ana and Ben (observer) are here", "Ana is here",
 * or "Only you are here". Observers carry their role; facilitators are the default.
 */
export function presentInWords(operators: readonly PresentOperator[], me: string | null): string {
  const others = operators.filter((o) => o.did !== me);
  if (others.length === 0) return 'Only you are here';
  const names = others.map((o) => (o.role === 'observer' ? `${displayName(o)} (observer)` : displayName(o)));
  return `${namesInWords(names)} ${others.length === 1 ? 'is' : 'are'} here`;
}

/** The `details` of a 409 as DecidedDetail, when the server sent one. */
export function decidedDetail(details: unknown): DecidedDetail | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const d = details as Partial<DecidedDetail>;
  if (typeof d.decision !== 'string' || d.decidedBy === undefined || d.decidedAt === undefined) return undefined;
  if (d.decidedBy !== null && (typeof d.decidedBy.did !== 'string' || typeof d.decidedBy.name !== 'string'))
    return undefined;
  if (d.decidedAt !== null && typeof d.decidedAt !== 'number') return undefined;
  return d as DecidedDetail;
}

/** "Ana approved this 12 seconds ago", "You cancelled this just now" (another tab), "This expired 3 minutes ago". */
export function decidedInWords(detail: DecidedDetail, nowMs: number, me: string | null): string {
  const when = detail.decidedAt === null ? '' : ` ${agoInWords(detail.decidedAt, nowMs)}`;
  if (detail.decidedBy === null) return `This was ${detail.decision}${when}.`;
  const who = detail.decidedBy.did === me ? 'You' : detail.decidedBy.name;
  return `${who} ${detail.decision} this${when}.`;
}
