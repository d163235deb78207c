// GET /api/external/negotiations: the negotiations on external services that the
// console opened or acted on through its forwarder, each with its source and whether its signed
// history replays here (`verified`). A service that is down, or that answers in a shape this
// console does not know, gives `negotiation: null` with the reason.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ExternalSource } from './external-services';
import { getJson } from './http';
import { NegotiationSummary } from './negotiations-list';

export const ExternalNegotiation = z.object({
  id: z.string(),
  source: ExternalSource,
  // Parsed on its own: one service's odd answer must not hide every other negotiation.
  negotiation: NegotiationSummary.nullable().catch(null),
  verified: z.boolean(),
  reason: z.string().nullable(),
});
export type ExternalNegotiation = z.infer<typeof ExternalNegotiation>;

export const externalNegotiationsQuery = queryOptions({
  queryKey: ['negotiations', 'external'],
  queryFn: ({ signal }) => getJson('/api/external/negotiations', z.object({ negotiations: z.array(ExternalNegotiation) }), { signal }).then((r) => r.negotiations),
  refetchInterval: 5_000,
});
