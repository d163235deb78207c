// The room's "Review mode" checkbox. Switching it changes what every agent's messages do and
// what every facilitator must do, in every room alike, so it asks first and says who is here
// (decisions-web.md §28).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Dialog } from '@web/components/ui/dialog';
import { TextField } from '@web/components/ui/text-field';
import { pendingReviewQuery } from '@web/lib/api/rooms-review';
import { endReview } from '@web/lib/api/rooms-review-end';
import type { Room } from '@shared/contract/rooms';
import { usePresence } from '@web/lib/operators/use-presence';
import { roomErrorInWords } from '@web/lib/room-words';
import { useState } from 'react';
import { reviewModeWords } from './review-mode-words';

export function ReviewModeSwitch({
  roomId,
  review,
  disabled,
  busy,
  me,
  onSwitch,
  onEnded,
}: {
  roomId: string;
  review: boolean;
  disabled: boolean;
  busy: boolean;
  me: string | null;
  onSwitch: (mode: 'auto' | 'review') => void;
  /** Review mode ended with the waiting candidates decided: the room as the server now has it. */
  onEnded: (room: Room) => void;
}) {
  const [asking, setAsking] = useState<boolean | null>(null);
  // The same page the room's presence avatars beat for, so no extra heartbeat is sent.
  const presence = usePresence(`/rooms/${encodeURIComponent(roomId)}`);
  const words = reviewModeWords(asking ?? !review, presence?.operators, me);
  // Turning review off with candidates waiting: they are decided first, or they would wait on
  // in the inbox with their agents stuck (decisions-server.md §86, decisions-web.md §39).
  const pending = useQuery({ ...pendingReviewQuery(roomId), enabled: review });
  const waiting = review ? (pending.data?.length ?? 0) : 0;
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const settle = useMutation({
    mutationFn: (decision: 'approve' | 'reject' | 'release') =>
      endReview(roomId, decision === 'reject' ? { decision, reason: reason.trim() } : { decision }),
    onSuccess: (room) => {
      onEnded(room);
      setAsking(null);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'review'] }),
  });
  if (asking === false && waiting > 0)
    return (
      <>
        <label className="ml-auto flex items-center gap-2 text-sm">
          <input type="checkbox" checked={review} disabled readOnly />
          Review mode (a facilitator approves each candidate)
        </label>
        <Dialog
          open
          onOpenChange={(open) => !open && !settle.isPending && setAsking(null)}
          title={`${waiting} ${waiting === 1 ? 'candidate waits' : 'candidates wait'} for review`}
        >
          <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300" data-testid="review-off-waiting">
            <p>
              {words.what} Decide what happens to the {waiting === 1 ? 'one' : waiting} waiting first: otherwise{' '}
              {waiting === 1 ? 'it stays' : 'they stay'} in the inbox and{' '}
              {waiting === 1 ? 'its agent waits' : 'their agents wait'} for an answer.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="primary"
                busy={settle.isPending && settle.variables === 'approve'}
                disabled={settle.isPending}
                onClick={() => settle.mutate('approve')}
              >
                Approve {waiting === 1 ? 'it' : `all ${waiting}`} and turn off
              </Button>
              <Button
                busy={settle.isPending && settle.variables === 'release'}
                disabled={settle.isPending}
                onClick={() => settle.mutate('release')}
              >
                Release {waiting === 1 ? 'it' : `all ${waiting}`} undecided and turn off
              </Button>
            </div>
            <p className="text-xs text-slate-500">
              Released candidates go back to their agents, told that review mode ended, so they may send them again.
            </p>
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (reason.trim()) settle.mutate('reject');
              }}
            >
              <TextField
                className="w-full min-w-0 sm:w-auto sm:flex-1"
                label="Or reject with a reason"
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
              />
              <Button
                type="submit"
                disabled={!reason.trim() || settle.isPending}
                busy={settle.isPending && settle.variables === 'reject'}
              >
                Reject {waiting === 1 ? 'it' : `all ${waiting}`} and turn off
              </Button>
            </form>
            {settle.isError ? (
              <p role="alert" className="text-rose-700 dark:text-rose-300">
                {roomErrorInWords(settle.error)}
              </p>
            ) : null}
            <div className="flex justify-end">
              <Button onClick={() => setAsking(null)} disabled={settle.isPending}>
                Keep review mode on
              </Button>
            </div>
          </div>
        </Dialog>
      </>
    );
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
