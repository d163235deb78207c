// How long each kind of text an operator writes may be, in one place (decisions-web.md §26): the
// console's forms count against these before sending, and the server refuses the same text over
// the same limit where it takes it (the broker's ACL for `say` and task goals, the rooms routes
// for names and reasons). Lengths are Unicode code points, what a person counts as characters.

/**
 * The kinds of text, each with its limit:
 * - `line`: a one-line label read in lists (a room's name, a task or meeting title, a request's
 *   title). 200 fits any real title and still reads as one line on a phone.
 * - `message`: something said to agents (a room `say`, a task goal, an answer, a request's
 *   field). 4,000 is a long email's worth; more belongs in a document behind a link, and it keeps
 *   every message far below the 64 KiB Agora envelope and 256 KiB AOR envelope caps, so a refusal
 *   is always this counter, never a byte count from a relay.
 * - `reason`: why a candidate was rejected, shown beside the decision.
 */
export const TEXT_LIMITS = { line: 200, message: 4_000, reason: 500 } as const;
export type TextKind = keyof typeof TEXT_LIMITS;

/** Code points in `text`; surrogate pairs count once, as the counter beside a field shows them. */
export function countChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    n += 1;
  }
  return n;
}

/** Whether `text` (as it will be sent, so trimmed by the caller if the form trims) fits its kind. */
export const fitsLimit = (kind: TextKind, text: string): boolean => countChars(text) <= TEXT_LIMITS[kind];

/** "must be at most 4,000 characters (this has 100,000)", or undefined when it fits. */
export function overLimitProblem(kind: TextKind, text: string): string | undefined {
  const n = countChars(text);
  const max = TEXT_LIMITS[kind];
  return n <= max
    ? undefined
    : `must be at most ${max.toLocaleString('en')} characters (this has ${n.toLocaleString('en')})`;
}

/**
 * The longest a mic grant may last: 30 days. A grant is a standing permission to speak in the
 * room unreviewed; one that outlives any real task (the longest a facilitator would plan ahead is a
 * month) is a mistake in the units, such as minutes typed as hours or years. Seconds.
 */
export const MAX_GRANT_SECONDS = 30 * 24 * 60 * 60;
