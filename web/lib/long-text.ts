// Where a long value is cut when it is shown collapsed (decisions-web.md §25): after ~400
// characters or 6 lines, whichever comes first, so one row of a list never takes more than a few
// lines however much an agent wrote. Pure, so the cut is tested.

export const COLLAPSE_CHARS = 400;
export const COLLAPSE_LINES = 6;

export interface Collapsed {
  /** What is shown while collapsed: `text` itself when it is short enough. */
  readonly head: string;
  /** Whether anything was left out. */
  readonly cut: boolean;
}

/** The first `chars` characters or `lines` lines of `text`; a surrogate pair is never split. */
export function collapse(text: string, chars = COLLAPSE_CHARS, lines = COLLAPSE_LINES): Collapsed {
  let end = Math.min(text.length, chars);
  let breaks = 0;
  for (let i = 0; i < end; i += 1) {
    if (text.charCodeAt(i) === 10 && ++breaks === lines) {
      end = i;
      break;
    }
  }
  // Do not leave half of a surrogate pair at the end.
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return end >= text.length ? { head: text, cut: false } : { head: text.slice(0, end).trimEnd(), cut: true };
}
