// The review keys, shared by a room's review queue and the inbox: J/K move,
// A approves, R asks for a reason. They work whenever a review list is on screen, without a click
// first (decisions-web.md §28): the layout's one key handler (web/app/shortcuts-dialog.tsx) reads
// the key and hands it to the list that registered here. It never does so while the operator
// types in a field or a dialog is open, so typing elsewhere never decides anything.
import { useEffect, useRef } from 'react';

export type ReviewKeyAction = 'next' | 'previous' | 'approve' | 'reject';

/** Answers whether the list acted on the key (false: nothing to act on, the key goes on). */
export type ReviewKeyHandler = (action: ReviewKeyAction) => boolean;

// The lists on screen, newest last: the newest one gets the keys.
const handlers: { current: ReviewKeyHandler }[] = [];

/** Hands a review key to the list on screen; false when there is none or it did nothing. */
export function dispatchReviewKey(action: ReviewKeyAction): boolean {
  return handlers.at(-1)?.current(action) ?? false;
}

/** Whether a review list is on screen (the layout's key handler asks, for the hint and tests). */
export const reviewListShown = (): boolean => handlers.length > 0;

/** Makes `handler` the one that gets the review keys, until the returned function is called. */
export function registerReviewKeys(handler: ReviewKeyHandler): () => void {
  const entry = { current: handler };
  handlers.push(entry);
  return () => {
    const at = handlers.indexOf(entry);
    if (at >= 0) handlers.splice(at, 1);
  };
}

/** While mounted and `enabled`, this component's review list takes the review keys. */
export function useReviewKeys(handler: ReviewKeyHandler, enabled: boolean): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => (enabled ? registerReviewKeys((action) => latest.current(action)) : undefined), [enabled]);
}
