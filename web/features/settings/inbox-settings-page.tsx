// /settings/inbox: which new inbox items raise a browser notification, per kind and per room,
// remembered for this operator in this browser (web/features/inbox/mute.ts). The inbox itself
// always lists everything; muting only keeps the notification quiet.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { INBOX_KINDS } from '@shared/contract/inbox';
import { roomOf } from '@web/lib/inbox/inbox-state';
import { useInbox } from '@web/lib/inbox/inbox-store';
import { KIND_LABEL } from '@web/lib/inbox/inbox-words';
import { toggle } from '@web/lib/inbox/mute';
import { NotifyButton } from '@web/components/inbox/notify-button';
import { useNotifyPrefs } from '@web/lib/inbox/use-notify-prefs';
import { roomsQuery } from '@web/lib/api/rooms-list';
import { useMemo } from 'react';

const KIND_WHAT = {
  review: 'A candidate waits for approval in a review-mode room.',
  cosign: 'An agreement waits for your co-signature.',
  slot: 'A scheduling slot waits for approval.',
  question: 'An agent asked the room a question.',
  grant: 'A mic grant is about to run out.',
  rejects: 'An agent is being rejected again and again.',
  service: 'A bridged relay or negotiation service is down.',
} as const;

export function InboxSettingsPage() {
  const [prefs, update] = useNotifyPrefs();
  const rooms = useQuery(roomsQuery);
  // The store's list itself: a selector that built a new array each time would never settle.
  const items = useInbox((s) => s.inbox?.items);
  const inboxRooms = useMemo(() => (items ?? []).map(roomOf), [items]);
  const roomIds = [
    ...new Set([...(rooms.data ?? []).map((r) => r.id), ...inboxRooms, ...prefs.mutedRooms].filter(Boolean)),
  ].sort() as string[];
  return (
    <div className="mx-auto w-full max-w-2xl">
      <Link to="/" className="text-sm text-teal-700 hover:underline dark:text-teal-300">
        ← Inbox
      </Link>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Inbox notifications</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Browser notifications for new items, for you in this browser. Muted items still show in the inbox.
      </p>
      <div className="mt-4">
        <NotifyButton />
      </div>
      <fieldset className="mt-6">
        <legend className="text-sm font-semibold">Notify me about</legend>
        <ul className="mt-2 space-y-2">
          {INBOX_KINDS.map((kind) => (
            <li key={kind}>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={!prefs.mutedKinds.includes(kind)}
                  onChange={(e) => update((p) => ({ ...p, mutedKinds: toggle(p.mutedKinds, kind, !e.target.checked) }))}
                />
                <span>
                  <span className="font-medium">{KIND_LABEL[kind]}</span>
                  <span className="block text-slate-600 dark:text-slate-400">{KIND_WHAT[kind]}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset className="mt-6">
        <legend className="text-sm font-semibold">Rooms</legend>
        {roomIds.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No rooms yet.</p>
        ) : (
          <ul className="mt-2 space-y-1">
            {roomIds.map((roomId) => (
              <li key={roomId}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={!prefs.mutedRooms.includes(roomId)}
                    onChange={(e) =>
                      update((p) => ({ ...p, mutedRooms: toggle(p.mutedRooms, roomId, !e.target.checked) }))
                    }
                  />
                  <span className="break-all font-mono">{roomId}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
    </div>
  );
}
