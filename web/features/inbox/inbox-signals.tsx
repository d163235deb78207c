// Everywhere in the console, while signed in: the tab title and the favicon carry the inbox's
// count, and new items raise a browser notification when the operator asked for them (mute.ts).
// Clicking one brings this tab forward and opens the item in the inbox.
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { BASE_TITLE, faviconDataUrl, titleWithCount } from '@web/lib/inbox/badge';
import { newItems } from '@web/lib/inbox/inbox-state';
import { openInbox, useInbox } from '@web/lib/inbox/inbox-store';
import { toNotify } from '@web/lib/inbox/mute';
import { notificationSupport, useNotifyPrefs } from '@web/lib/inbox/use-notify-prefs';

export function InboxSignals() {
  const count = useInbox((s) => s.inbox?.items.length ?? 0);
  const [prefs] = useNotifyPrefs();
  const navigate = useNavigate();
  // The stream's listener is set up once; it reads the latest choices and router through these.
  const prefsRef = useRef(prefs);
  const navigateRef = useRef(navigate);
  useEffect(() => {
    prefsRef.current = prefs;
    navigateRef.current = navigate;
  }, [prefs, navigate]);

  useEffect(() => openInbox(), []);

  useEffect(() => {
    document.title = titleWithCount(count);
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link) {
      link.type = 'image/svg+xml';
      link.href = count > 0 ? faviconDataUrl(count) : '/favicon.svg';
    }
  }, [count]);
  useEffect(
    () => () => {
      document.title = BASE_TITLE;
      const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (link) link.href = '/favicon.svg';
    },
    [],
  );

  useEffect(
    () =>
      useInbox.subscribe((s, before) => {
        // The first list is what was already waiting, not news.
        if (!s.inbox || !before.inbox || s.inbox === before.inbox || !prefsRef.current.enabled) return;
        if (notificationSupport() !== 'granted') return;
        for (const item of toNotify(newItems(before.inbox.items, s.inbox.items), prefsRef.current)) {
          const n = new Notification(item.title, { body: item.quote ?? '', tag: item.id });
          n.onclick = () => {
            window.focus();
            n.close();
            void navigateRef.current({ to: '/', search: { item: item.id } });
          };
        }
      }),
    [],
  );

  return null;
}
