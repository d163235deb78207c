// This page's presence (decisions-server.md §56): a heartbeat every
// `heartbeatMs` (15 s) while the page is mounted, its answer put in the query cache, and a poll
// between beats so someone arriving shows within seconds. Nothing is sent when the page unmounts:
// the server forgets a silent page after 40 s.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PresenceAnswer } from '@shared/contract/operators';
import { beatPresence, presenceKey, presenceQuery } from '@web/lib/api/operator-presence';

const DEFAULT_HEARTBEAT_MS = 15_000;

export function usePresence(where: string): PresenceAnswer | undefined {
  const queryClient = useQueryClient();
  const query = useQuery(presenceQuery(where));
  const heartbeatMs = query.data?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  useEffect(() => {
    const controller = new AbortController();
    const beat = () =>
      beatPresence(where, controller.signal).then(
        (answer) => queryClient.setQueryData(presenceKey(where), answer),
        // A missed beat is made up by the next; presence is a courtesy, never an error to show.
        () => undefined,
      );
    void beat();
    const timer = setInterval(() => void beat(), heartbeatMs);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [where, heartbeatMs, queryClient]);
  return query.data;
}
