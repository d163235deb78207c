// The signed-in operator's notification choices (mute.ts), in localStorage under their did.
// One store for the console, so the settings page and the notifier see a change at once.
import { useSession } from '@web/lib/identity/use-session';
import { useCallback } from 'react';
import { create } from 'zustand';
import { DEFAULT_PREFS, parsePrefs, prefsKey, type NotifyPrefs } from './mute';

const usePrefsStore = create<{ readonly byDid: Readonly<Record<string, NotifyPrefs>> }>()(() => ({ byDid: {} }));

function read(did: string): NotifyPrefs {
  const held = usePrefsStore.getState().byDid[did];
  if (held) return held;
  let text: string | null = null;
  try {
    text = localStorage.getItem(prefsKey(did));
  } catch {
    // Storage blocked: choices last for this page only.
  }
  return parsePrefs(text);
}

export function useNotifyPrefs(): [NotifyPrefs, (change: (p: NotifyPrefs) => NotifyPrefs) => void] {
  const did = useSession()?.did ?? null;
  const prefs = usePrefsStore((s) => (did ? (s.byDid[did] ?? null) : null)) ?? (did ? read(did) : DEFAULT_PREFS);
  const update = useCallback(
    (change: (p: NotifyPrefs) => NotifyPrefs) => {
      if (!did) return;
      const next = change(read(did));
      usePrefsStore.setState((s) => ({ byDid: { ...s.byDid, [did]: next } }));
      try {
        localStorage.setItem(prefsKey(did), JSON.stringify(next));
      } catch {
        // As above.
      }
    },
    [did],
  );
  return [prefs, update];
}

/** What the browser says about notifications here: unsupported, or its permission. */
export function notificationSupport(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}
