// Who gets told about what (notifications are opt-in): browser notifications for new
// inbox items, muted per kind and per room, remembered per operator in this browser under a
// key holding the operator's did, so two operators sharing a browser keep their own choices.
import { INBOX_KINDS, type InboxItem, type InboxKind } from '@shared/contract/inbox';
import { roomOf } from './inbox-state';

export interface NotifyPrefs {
  /** The operator asked for browser notifications (from a button, never on load). */
  readonly enabled: boolean;
  readonly mutedKinds: readonly InboxKind[];
  readonly mutedRooms: readonly string[];
}

export const DEFAULT_PREFS: NotifyPrefs = { enabled: false, mutedKinds: [], mutedRooms: [] };

export const prefsKey = (did: string) => `switchboard.inbox.notify.${did}`;

/** True when this item should not raise a notification. The list always shows it. */
export function isMuted(item: InboxItem, prefs: NotifyPrefs): boolean {
  if (prefs.mutedKinds.includes(item.kind)) return true;
  const room = roomOf(item);
  return room !== null && prefs.mutedRooms.includes(room);
}

/** The items to notify about: new ones, when notifications are on, minus what is muted. */
export const toNotify = (fresh: readonly InboxItem[], prefs: NotifyPrefs): InboxItem[] =>
  prefs.enabled ? fresh.filter((i) => !isMuted(i, prefs)) : [];

/** Stored text back to prefs; anything unreadable or unknown falls back to the defaults. */
export function parsePrefs(text: string | null): NotifyPrefs {
  if (!text) return DEFAULT_PREFS;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return DEFAULT_PREFS;
  }
  if (typeof raw !== 'object' || raw === null) return DEFAULT_PREFS;
  const r = raw as Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  return {
    enabled: r.enabled === true,
    mutedKinds: strings(r.mutedKinds).filter((k): k is InboxKind => (INBOX_KINDS as readonly string[]).includes(k)),
    mutedRooms: [...new Set(strings(r.mutedRooms))],
  };
}

export function toggle<T>(list: readonly T[], value: T, on: boolean): T[] {
  const rest = list.filter((v) => v !== value);
  return on ? [...rest, value] : rest;
}
