// GET /agents: the OSNAP directory (§3.3 entries) with our presence and the manifest each entry
// was built from. The session cookie is the caller, so private entries the operator may see
// are included.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { AgentEntry } from '@shared/osnap/agent-entry';
import { getJson } from './http';

export const PRESENCE_STATUSES = ['online', 'stale', 'offline', 'unknown'] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

export const DirectoryEntry = AgentEntry.extend({
  presence: z.looseObject({
    status: z.enum(PRESENCE_STATUSES),
    last_seen_at: z.string().nullable(),
    sources: z.array(z.string()),
  }),
  registered_at: z.string(),
  /** The Agora capability manifest the entry came from (pricing lives there). */
  manifest: z.looseObject({ pricing: z.looseObject({ model: z.string() }).optional() }).optional(),
});
export type DirectoryEntry = z.infer<typeof DirectoryEntry>;

export const directoryQuery = queryOptions({
  queryKey: ['agora', 'agents'],
  queryFn: ({ signal }) => getJson('/agents', z.array(DirectoryEntry), { signal }),
  // Presence changes without any event the console hears of.
  refetchInterval: 15_000,
});
