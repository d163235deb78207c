// GET /api/rooms/:id/agents: presence of each agent seen in the room (shape: shared/contract/rooms.ts).
import { queryOptions } from '@tanstack/react-query';
import { PresenceList } from '@shared/contract/rooms';
import { getJson } from './http';

export type { AgentPresence } from '@shared/contract/rooms';

export const roomAgentsQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'agents'],
    queryFn: ({ signal }) =>
      getJson(`/api/rooms/${encodeURIComponent(roomId)}/agents`, PresenceList, { signal }).then((r) => r.agents),
    // Presence notices refresh it at once; this catches "stale", which the server announces too.
    refetchInterval: 10_000,
  });
