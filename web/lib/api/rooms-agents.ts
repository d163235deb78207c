// GET /api/rooms/:id/agents: presence of each agent seen in the room.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

export const AgentPresence = z.object({
  roomId: z.string(),
  agentId: z.string(),
  description: z.string().nullable(),
  status: z.enum(['online', 'stale', 'offline']),
  /** Milliseconds since the epoch. */
  lastSeenAt: z.number(),
  intervalMs: z.number(),
});
export type AgentPresence = z.infer<typeof AgentPresence>;

const Answer = z.object({ agents: z.array(AgentPresence) });

export const roomAgentsQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'agents'],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}/agents`, Answer, { signal }).then((r) => r.agents),
    // Presence notices refresh it at once; this catches "stale", which the server announces too.
    refetchInterval: 10_000,
  });
