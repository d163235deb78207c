// Names and ids as the console shows them: bidirectional controls (which can reverse what follows
// them on screen, so "evil\u202Etxt.exe" reads as "evilexe.txt") and NUL (invisible, and a
// truncation point for some readers) are made visible instead of acting. Used wherever a name or
// id written by someone else is rendered (decisions-web.md §25).

import { BIDI_MARKER, withoutBidiControls } from '@shared/bidi-controls';

export { BIDI_MARKER };
/** What NUL shows as: the Control Pictures block's own symbol for it. */
export const NUL_MARKER = '\u2400'; // ␀

/** `text` with every bidi control replaced by ␦ and every NUL by ␀; anything else unchanged. */
export function displayText(text: string): string {
  // Most names have neither: skip the copies. NUL is what this looks for, so the rule is off here.
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u.test(text)) return text;
  return withoutBidiControls(text).replaceAll('\u0000', NUL_MARKER);
}
