// GET /api/external/:serviceId/threads/:threadId: one thread bridged from an external relay,
// every envelope with the bridge's verdict (trusted, applied, reason), and the service it came
// from with its reachability. Read from this console's store, so a relay that is down
// still shows what was fetched before; the query keeps polling and the status says "down".
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ThreadView } from './agora-threads';
import { ExternalSource } from './external-services';
import { getJson } from './http';

export const BridgedEvent = z.object({
  seq: z.number(),
  receivedAt: z.number(),
  /** As fetched; the browser verifies it again before anything is offered on it. */
  envelope: z.unknown(),
  trusted: z.boolean(),
  /** Why the bridge did not trust it, or why the thread machine refused it; null when applied. */
  reason: z.string().nullable(),
  applied: z.boolean(),
});
export type BridgedEvent = z.infer<typeof BridgedEvent>;

const BridgedThreadDetail = z.object({
  thread: ThreadView.omit({ version: true, deadlineAt: true }).extend({ serviceId: z.string(), untrusted: z.number() }),
  events: z.array(BridgedEvent),
  source: ExternalSource,
});
export type BridgedThreadDetail = z.infer<typeof BridgedThreadDetail>;

export const externalThreadQuery = (serviceId: string, threadId: string) =>
  queryOptions({
    queryKey: ['external', 'thread', serviceId, threadId],
    queryFn: ({ signal }) => getJson(`/api/external/${encodeURIComponent(serviceId)}/threads/${encodeURIComponent(threadId)}`, BridgedThreadDetail, { signal }),
    // The bridge long-polls the relay; this only re-reads what it stored (and the status).
    refetchInterval: 3_000,
  });
