// GET /api/negotiations?state=: every negotiation's summary, newest activity first (session).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

export const NEGOTIATION_STATES = ['OPEN', 'PROPOSED', 'COUNTERED', 'ACCEPTED', 'REJECTED', 'EXPIRED', 'WITHDRAWN'] as const;
export const NegotiationStateName = z.enum(NEGOTIATION_STATES);
export type NegotiationStateName = z.infer<typeof NegotiationStateName>;

/** `Summary` of the negotiation API contract (server/README.md). */
export const NegotiationSummary = z.object({
  id: z.string(),
  state: NegotiationStateName,
  parties: z.tuple([z.string(), z.string()]),
  opened_by: z.string(),
  category: z.string(),
  rounds: z.number(),
  max_rounds: z.number(),
  confidentiality: z.string(),
  /** §3.7: each regulated party, its profession and the obligations it brings. */
  regulated_obligations: z.array(z.object({ party: z.string(), profession: z.string(), obligations: z.array(z.string()) })),
  created_at: z.string(),
  last_activity: z.string(),
  latest_proposal_id: z.string().nullable(),
  valid_until: z.string().nullable(),
  expiring_soon: z.boolean(),
  agreement_id: z.string().nullable(),
  log_index: z.number().nullable(),
  version: z.number(),
});
export type NegotiationSummary = z.infer<typeof NegotiationSummary>;

const List = z.object({ now: z.string(), negotiations: z.array(NegotiationSummary) });

export const negotiationsQuery = (state: NegotiationStateName | null) =>
  queryOptions({
    queryKey: ['negotiations', state ?? 'all'],
    queryFn: ({ signal }) => getJson(`/api/negotiations${state ? `?state=${state}` : ''}`, List, { signal }),
    refetchInterval: 5_000,
  });
