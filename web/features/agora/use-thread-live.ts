// Live updates of one thread: a long-poll on GET /events?thread=…, resumed with the cursor of
// each answer (never a timestamp: decisions-agora.md §21). The poll only wakes the view; the
// thread record (GET /api/agora/threads/:id) stays the one source of envelopes and state,
// because the relay stops serving an envelope after its meta.ttl while the record keeps it.
import { useQueryClient } from '@tanstack/react-query';
import { pollEvents } from '@web/lib/api/agora-events-poll';
import { threadQuery } from '@web/lib/api/agora-thread';
import { useEffect, useState } from 'react';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

const POLL_SECONDS = 25;
const RETRY_MS = 2_000;

/** `startCursor`: the last event's cursor when the record was read; undefined until it is. */
export function useThreadLive(threadId: string, startCursor: string | undefined, ended: boolean): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const ready = startCursor !== undefined;
  useEffect(() => {
    if (!ready || ended) return;
    const stop = new AbortController();
    // Read once here: later records move the cursor through the poll's own answers.
    let since = queryClient.getQueryData(threadQuery(threadId).queryKey)?.events.at(-1)?.cursor ?? 'cur_0';
    // The first poll answers at once, so "Live" means the relay answered, not that we asked.
    let wait = 0;
    void (async () => {
      while (!stop.signal.aborted) {
        try {
          const answer = await pollEvents(since, { thread: threadId }, wait, stop.signal);
          wait = POLL_SECONDS;
          setStatus('live');
          since = answer.cursor;
          if (answer.events.length > 0)
            await queryClient.invalidateQueries({ queryKey: threadQuery(threadId).queryKey });
        } catch {
          if (stop.signal.aborted) return;
          setStatus('reconnecting');
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    })();
    return () => stop.abort();
  }, [threadId, ready, ended, queryClient]);
  return ended ? 'ended' : status;
}
