// POST /api/presence {where}: this page's heartbeat, answered with who is on it; GET for a read.
import { queryOptions } from '@tanstack/react-query';
import { PresenceAnswer } from '@shared/contract/operators';
import { getJson, postJson } from './http';

export const beatPresence = (where: string, signal?: AbortSignal): Promise<PresenceAnswer> =>
  postJson('/api/presence', { where }, PresenceAnswer, { signal: signal ?? null });

export const presenceKey = (where: string) => ['presence', where] as const;

/** Who is on `where`, kept fresh by the page's own heartbeat (use-presence.ts) and a poll between beats. */
export const presenceQuery = (where: string) =>
  queryOptions({
    queryKey: presenceKey(where),
    queryFn: ({ signal }) =>
      getJson(`/api/presence?where=${encodeURIComponent(where)}`, PresenceAnswer, { signal: signal ?? null }),
    refetchInterval: 5_000,
  });
