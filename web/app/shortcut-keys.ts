// The console's keyboard shortcuts: one list, shown behind `?`, and the pure matcher the
// layout's key handler runs (two-key sequences like `g r` within a second). The `g` ones come
// from the screens list (screens.ts).
import type { ReviewKeyAction } from '@web/lib/review/review-keys';
import { GO_TO, type GoToPath } from './screens';

export interface Shortcut {
  readonly keys: readonly string[];
  readonly what: string;
  /** Where it works. */
  readonly scope: 'anywhere' | 'room' | 'review queue or inbox' | 'live tail';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['?'], what: 'Show these shortcuts', scope: 'anywhere' },
  {
    keys: ['Ctrl', 'K'],
    what: 'Find a screen, room, agent, negotiation, thread or meeting by name (⌘ K on a Mac)',
    scope: 'anywhere',
  },
  ...GO_TO.map(({ key, what }): Shortcut => ({ keys: ['g', key], what, scope: 'anywhere' })),
  { keys: ['p'], what: 'Presenter mode: large, high-contrast, follows live events', scope: 'anywhere' },
  { keys: ['/'], what: 'Search or filter', scope: 'room' },
  { keys: ['Esc'], what: 'Close a dialog, or leave a field', scope: 'anywhere' },
  { keys: ['Space'], what: 'Pause or resume the live tail', scope: 'live tail' },
  { keys: ['J'], what: 'Next candidate', scope: 'review queue or inbox' },
  { keys: ['K'], what: 'Previous candidate', scope: 'review queue or inbox' },
  { keys: ['A'], what: 'Approve the candidate', scope: 'review queue or inbox' },
  { keys: ['R'], what: 'Reject the candidate, with a reason', scope: 'review queue or inbox' },
];

/**
 * `goTo`: open that screen. `review`: a review key, for whichever review list is on screen
 * (decisions-web.md §28); a `g` sequence wins over it, so `g r` still opens rooms.
 */
export type GlobalAction =
  'help' | 'presenter' | 'search' | { readonly goTo: GoToPath } | { readonly review: ReviewKeyAction };

export interface SequenceState {
  /** A first key waiting for its second, and when it was pressed (ms). */
  readonly pending: { readonly key: string; readonly at: number } | null;
}

export const SEQUENCE_MS = 1_000;
export const idle: SequenceState = { pending: null };

const SEQUENCES: Readonly<Record<string, GlobalAction>> = Object.fromEntries(
  GO_TO.map(({ key, path }) => [`g ${key}`, { goTo: path }]),
);
const SINGLE: Readonly<Record<string, GlobalAction>> = {
  '?': 'help',
  '/': 'search',
  p: 'presenter',
  j: { review: 'next' },
  k: { review: 'previous' },
  a: { review: 'approve' },
  r: { review: 'reject' },
};

/** Feeds one key (KeyboardEvent.key) at `now`; says what to do, and the next state. */
export function matchKey(
  state: SequenceState,
  key: string,
  now: number,
): { action: GlobalAction | null; state: SequenceState } {
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (state.pending && now - state.pending.at <= SEQUENCE_MS) {
    const action = SEQUENCES[`${state.pending.key} ${k}`];
    if (action) return { action, state: idle };
  }
  if (Object.keys(SEQUENCES).some((s) => s.startsWith(`${k} `)))
    return { action: null, state: { pending: { key: k, at: now } } };
  const single = SINGLE[key] ?? SINGLE[k];
  if (single) return { action: single, state: idle };
  return { action: null, state: idle };
}

// Inputs that take no text: a letter pressed on them is a shortcut, so ticking "Review mode" and
// then pressing J moves in the queue without another click.
const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether an element takes typed text (a text input, a text area, a select, editable content). */
export function takesText(el: {
  readonly tagName: string;
  readonly isContentEditable?: boolean;
  readonly type?: string;
}) {
  if (el.tagName === 'INPUT') return !NOT_TYPED.has((el.type ?? 'text').toLowerCase());
  return el.isContentEditable === true || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/** Keys typed into a field, or with a modifier, are never shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && takesText(target as HTMLElement & { type?: string });
}
