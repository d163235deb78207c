// GET /events (Agora v1.0 "Subscribe to Events"): one long-poll, resumed with the `cursor` of
// the previous answer, which never misses or repeats an event (decisions-agora.md §21).
import { EventPage } from '@shared/contract/relay';
import { getJson } from './http';

export interface PollFilter {
  readonly thread?: string;
  readonly recipient?: string;
}

export function pollEvents(
  since: string,
  filter: PollFilter,
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<EventPage> {
  const params = new URLSearchParams({ since, timeout: String(timeoutSeconds) });
  if (filter.thread) params.set('thread', filter.thread);
  if (filter.recipient) params.set('recipient', filter.recipient);
  return getJson(`/events?${params}`, EventPage, signal ? { signal } : undefined);
}
