// GET /api/external/negotiations: the negotiations on external services that the
// console opened or acted on through its forwarder, each with its source and whether its signed
// history replays here (`verified`). A service that is down, or that answers in a shape this
// console does not know, gives `negotiation: null` with the reason (shared/contract/console.ts).
import { queryOptions } from '@tanstack/react-query';
import { ExternalNegotiationList } from '@shared/contract/console';
import { getJson } from './http';

export type { ExternalNegotiation } from '@shared/contract/console';

export const externalNegotiationsQuery = queryOptions({
  queryKey: ['negotiations', 'external'],
  queryFn: ({ signal }) =>
    getJson('/api/external/negotiations', ExternalNegotiationList, { signal }).then((r) => r.negotiations),
  refetchInterval: 5_000,
});
