// The room's "Review mode" checkbox. Switching it changes what every agent's messages do and
// what every facilitator must do, in every room alike, so it asks first and says who is here
// (decisions-web.md §28).
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { usePresence } from '@web/lib/operators/use-presence';
import { useState } from 'react';
import { reviewModeWords } from './review-mode-words';

export function ReviewModeSwitch({
  roomId,
  review,
  disabled,
  busy,
  me,
  onSwitch,
}: {
  roomId: string;
  review: boolean;
  disabled: boolean;
  busy: boolean;
  me: string | null;
  onSwitch: (mode: 'auto' | 'review') => void;
}) {
  const [asking, setAsking] = useState<boolean | null>(null);
  // The same page the room's presence avatars beat for, so no extra heartbeat is sent.
  const presence = usePresence(`/rooms/${encodeURIComponent(roomId)}`);
  const words = reviewModeWords(asking ?? !review, presence?.operators, me);
  return (
    <>
      <label className="ml-auto flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={review}
          disabled={disabled || busy}
          onChange={(e) => setAsking(e.target.checked)}
        />
        Review mode (a facilitator approves each candidate)
      </label>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={words.title}
        confirmLabel={words.confirm}
        tone="primary"
        onConfirm={() => {
          if (asking !== null) onSwitch(asking ? 'review' : 'auto');
          setAsking(null);
        }}
      >
        <p>{words.what}</p>
        <p className="mt-2" data-testid="review-mode-who">
          {words.who}
        </p>
      </ConfirmDialog>
    </>
  );
}
