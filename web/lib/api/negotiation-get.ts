// GET /api/negotiations/{id}: one negotiation with its signed history, agreement, signing bytes
// and log position (session). One on an external service is read through the forwarder
// (GET /api/external/:serviceId/oap/negotiation/{id}), which answers in the same shape (shared/contract/negotiation.ts).
import { queryOptions } from '@tanstack/react-query';
import { NegotiationDetail } from '@shared/contract/negotiation';
import { getJson } from './http';
import { oapBase } from './oap-base';

export type { NegotiationDetail, NegotiationSigning } from '@shared/contract/negotiation';

export const negotiationQuery = (id: string, source?: string) =>
  queryOptions({
    queryKey: ['negotiation', id, source ?? 'built-in'],
    queryFn: ({ signal }) =>
      getJson(
        source === undefined
          ? `/api/negotiations/${encodeURIComponent(id)}`
          : `${oapBase(source)}/oap/negotiation/${encodeURIComponent(id)}`,
        NegotiationDetail,
        { signal },
      ),
    refetchInterval: 3_000,
  });
