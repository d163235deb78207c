// Bidirectional controls: embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and
// the three marks (U+200E, U+200F, U+061C). In text someone else wrote they can reverse what
// follows on screen ("evil\u202Etxt.exe" reads as "evilexe.txt"), so where such text is shown or
// quoted they are made visible instead of acting (decisions-web.md §25, decisions-server.md §82).

/** Every bidi control, globally. */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;
/** What a bidi control shows as: a visible, direction-neutral marker. */
export const BIDI_MARKER = '\u2426'; // ␦ SYMBOL FOR SUBSTITUTE FORM TWO

/** `text` with each bidi control replaced by BIDI_MARKER. */
export const withoutBidiControls = (text: string): string => text.replace(BIDI_CONTROLS, BIDI_MARKER);
