// Names and ids as the console shows them: bidirectional controls (which can reverse what follows
// them on screen, so "evil\u202Etxt.exe" reads as "evilexe.txt") and NUL (invisible, and a
// truncation point for some readers) are made visible instead of acting. Used wherever a name or
// id written by someone else is rendered (decisions-web.md §25).

/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the three marks. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;
/** What a bidi control shows as: a visible, direction-neutral marker. */
export const BIDI_MARKER = '\u2426'; // ␦ SYMBOL FOR SUBSTITUTE FORM TWO
/** What NUL shows as: the Control Pictures block's own symbol for it. */
export const NUL_MARKER = '\u2400'; // ␀

/** `text` with every bidi control replaced by ␦ and every NUL by ␀; anything else unchanged. */
export function displayText(text: string): string {
  // Most names have neither: skip the copies. NUL is what this looks for, so the rule is off here.
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u.test(text)) return text;
  return text.replace(BIDI, BIDI_MARKER).replaceAll('\u0000', NUL_MARKER);
}
