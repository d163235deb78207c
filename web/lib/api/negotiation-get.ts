// GET /api/negotiations/{id}: one negotiation with its signed history, agreement, signing bytes
// and log position (session). One on an external service is read through the forwarder
// (GET /api/external/:serviceId/oap/negotiation/{id}), which answers in the same shape. History items stay loosely typed here on purpose: the browser
// verifies each one itself, and a tampered item must still be shown (as not verified).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';
import { oapBase } from './oap-base';
import { NegotiationSummary } from './negotiations-list';

const Json = z.record(z.string(), z.unknown());

export const NegotiationSigning = z.object({
  statement_jcs: z.string(),
  statement_base64url: z.string(),
  agreement_hash: z.string(),
  canonical_agreement: z.string(),
});
export type NegotiationSigning = z.infer<typeof NegotiationSigning>;

export const NegotiationDetail = z.object({
  negotiation: NegotiationSummary,
  history: z.array(Json),
  agreement: Json.nullable(),
  signing: NegotiationSigning.nullable(),
  log: z.object({ index: z.number(), entry: Json }).nullable(),
  limits: z.object({
    categories: z.array(z.string()).nullable(),
    maxRounds: z.number(),
    defaultValidityMinutes: z.number(),
    clockSkewMs: z.number(),
  }),
  available_actions: z.record(z.string(), z.array(z.string())),
});
export type NegotiationDetail = z.infer<typeof NegotiationDetail>;

export const negotiationQuery = (id: string, source?: string) =>
  queryOptions({
    queryKey: ['negotiation', id, source ?? 'built-in'],
    queryFn: ({ signal }) =>
      getJson(source === undefined ? `/api/negotiations/${encodeURIComponent(id)}` : `${oapBase(source)}/oap/negotiation/${encodeURIComponent(id)}`, NegotiationDetail, { signal }),
    refetchInterval: 3_000,
  });
