// The review keys (UX.md "leads" 2), shared by a room's review queue and the inbox: J/K move,
// A approves, R asks for a reason. They act only while the list itself has focus, so typing in a
// field or a dialog never decides anything.
import type { KeyboardEvent } from 'react';

export type ReviewKeyAction = 'next' | 'previous' | 'approve' | 'reject';

const KEYS: Readonly<Record<string, ReviewKeyAction>> = { j: 'next', k: 'previous', a: 'approve', r: 'reject' };

export function reviewKeyAction(
  e: Pick<KeyboardEvent, 'key' | 'target' | 'altKey' | 'ctrlKey' | 'metaKey'>,
  list: EventTarget | null,
): ReviewKeyAction | null {
  if (e.target !== list || e.altKey || e.ctrlKey || e.metaKey) return null;
  return KEYS[e.key.toLowerCase()] ?? null;
}
