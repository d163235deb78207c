// Step 3's own controls: book the best slot once the demo person and the room have answered
// (ConfirmCollaboration at revision + 1, planned by the shared core and signed in this browser).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { planConfirmation } from '@shared/oacop/scheduling-actions';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { schedulingThreadQuery } from '@web/lib/api/scheduling-thread';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import { browserTimeZone } from '@web/lib/oacop/zone-labels';
import { slotWords } from '@web/lib/story/scheduling-story';

export function BookMeeting({ threadId }: { threadId: string }) {
  const queryClient = useQueryClient();
  const thread = useQuery(schedulingThreadQuery(threadId));
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
        <Button variant="primary" busy={book.isPending} onClick={() => book.mutate()}>
          Book {slotWords(best, browserTimeZone())}
        </Button>
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
