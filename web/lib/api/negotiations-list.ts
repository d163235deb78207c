// GET /api/negotiations?state=: every negotiation's summary, newest activity first (session);
// shape: shared/contract/negotiation.ts.
import { queryOptions } from '@tanstack/react-query';
import { NegotiationList, NegotiationStateName } from '@shared/contract/negotiation';
import { getJson } from './http';

export const NEGOTIATION_STATES = NegotiationStateName.options;
export type { NegotiationStateName, NegotiationSummary } from '@shared/contract/negotiation';

export const negotiationsQuery = (state: NegotiationStateName | null) =>
  queryOptions({
    queryKey: ['negotiations', state ?? 'all'],
    queryFn: ({ signal }) => getJson(`/api/negotiations${state ? `?state=${state}` : ''}`, NegotiationList, { signal }),
    refetchInterval: 5_000,
  });
