// Browser notifications are asked for from this button, never on load: the permission
// prompt follows the operator's click, and "on" is remembered for this operator (mute.ts).
import { Button } from '@web/components/ui/button';
import { useState } from 'react';
import { notificationSupport, useNotifyPrefs } from '@web/lib/inbox/use-notify-prefs';

export function NotifyButton() {
  const [prefs, update] = useNotifyPrefs();
  const [permission, setPermission] = useState(notificationSupport);
  if (permission === 'unsupported') return null;
  if (permission === 'denied')
    return <span className="text-xs text-slate-500">Notifications are blocked in this browser's site settings.</span>;
  if (prefs.enabled && permission === 'granted')
    return (
      <Button size="sm" variant="ghost" onClick={() => update((p) => ({ ...p, enabled: false }))}>
        Notifications on · turn off
      </Button>
    );
  return (
    <Button
      size="sm"
      onClick={() => {
        void Notification.requestPermission().then((answer) => {
          setPermission(answer);
          if (answer === 'granted') update((p) => ({ ...p, enabled: true }));
        });
      }}
    >
      Notify me of new items
    </Button>
  );
}
