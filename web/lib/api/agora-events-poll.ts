// GET /events (Agora v1.0 "Subscribe to Events"): one long-poll, resumed with the `cursor` of
// the previous answer, which never misses or repeats an event (decisions-agora.md §21).
import { z } from 'zod';
import { getJson } from './http';

const PollAnswer = z.object({ ok: z.literal(true), events: z.array(z.unknown()), hasMore: z.boolean(), cursor: z.string() });
export type PollAnswer = z.infer<typeof PollAnswer>;

export interface PollFilter {
  readonly thread?: string;
  readonly recipient?: string;
}

export function pollEvents(since: string, filter: PollFilter, timeoutSeconds: number, signal?: AbortSignal): Promise<PollAnswer> {
  const params = new URLSearchParams({ since, timeout: String(timeoutSeconds) });
  if (filter.thread) params.set('thread', filter.thread);
  if (filter.recipient) params.set('recipient', filter.recipient);
  return getJson(`/events?${params}`, PollAnswer, signal ? { signal } : undefined);
}
