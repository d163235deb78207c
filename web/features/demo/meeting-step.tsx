// Step 3's own controls: book the best slot once the demo person and the room have answered
// (ConfirmCollaboration at revision + 1, planned by the shared core and signed in this browser).
// Before the button, who it is booked for and the slot's time where each of them is
// (decisions-web.md §45).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { planConfirmation } from '@shared/oacop/scheduling-actions';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { schedulingThreadQuery } from '@web/lib/api/scheduling-thread';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import { browserTimeZone } from '@web/lib/oacop/zone-labels';
import { slotWords } from '@web/lib/story/scheduling-story';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { oacopAgents } from '@web/lib/oacop/oacop-directory';
import { slotAttendees } from '@web/lib/oacop/slot-words';
import { useNames } from '@web/lib/names/use-names';
import { SlotAttendees } from '@web/components/slot-attendees';
import { useNow } from '@web/lib/use-now';

export function BookMeeting({ threadId }: { threadId: string }) {
  const queryClient = useQueryClient();
  const thread = useQuery(schedulingThreadQuery(threadId));
  const directory = useQuery(directoryQuery);
  const { nameOf } = useNames();
  const now = useNow(60_000);
  const book = useMutation({
    mutationFn: async () => {
      const view = thread.data;
      const best = view?.suggestion && 'candidates' in view.suggestion ? view.suggestion.candidates[0] : undefined;
      if (!view || !best) throw new Error('There is no slot that suits everyone yet.');
      const planned = planConfirmation(view.state, { start: best.start, end: best.end });
      if (!planned.ok) throw new Error(planned.error.message);
      await sendCarriers(
        planned.value.message,
        view.participants.map((p) => p.did),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['oacop'] }),
  });
  const view = thread.data;
  if (!view || view.state.status !== 'PROPOSED') return null;
  const best = view.suggestion && 'candidates' in view.suggestion ? view.suggestion.candidates[0] : undefined;
  const waiting = view.participants.filter((p) => p.required && !p.response).length;
  return (
    <div className="space-y-2">
      {best && waiting === 0 ? (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            The best slot for everyone, where each of them is:
          </p>
          <SlotAttendees
            attendees={slotAttendees(
              best,
              view.participants,
              (did) => oacopAgents(directory.data ?? []).find((a) => a.did === did)?.timeZone,
              nameOf,
              now,
            )}
          />
          <Button variant="primary" busy={book.isPending} onClick={() => book.mutate()}>
            Book {slotWords(best, browserTimeZone())}
          </Button>
        </>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {waiting > 0
            ? `Waiting for ${waiting} answer${waiting === 1 ? '' : 's'}…`
            : 'No slot suits everyone; open the thread to see the nearest alternatives.'}
        </p>
      )}
      {book.isError ? (
        <Notice tone="error" title="The booking was not sent">
          {book.error.message}
        </Notice>
      ) : null}
    </div>
  );
}
