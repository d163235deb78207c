// Payload of each envelope type (Agora v1.0 "Message Types"). The fields the protocol relies
// on are required and typed; everything else the examples show is optional but typed when
// present; unknown fields pass through (loose objects), because they are covered by the
// signature and a peer may add its own. See docs/decisions-agora.md.
import { z } from 'zod';
import { Identifier, UtcTimestamp } from './fields';

const Amount = z.number().nonnegative();
const JsonObject = z.record(z.string(), z.unknown());

export const RequestPayload = z.looseObject({
  request_id: Identifier,
  intent: z.string().min(1).max(256),
  title: z.string().optional(),
  description: z.string().optional(),
  params: JsonObject.optional(),
  constraints: z
    .looseObject({
      max_cost_usd: Amount.optional(),
      max_latency_ms: z.int().nonnegative().optional(),
      // "constraints.deadline … Client/Agent application level" (Timeout Rules): typed, not enforced.
      deadline: UtcTimestamp.optional(),
    })
    .optional(),
});

export const OfferPayload = z.looseObject({
  request_id: Identifier,
  plan: z.string().optional(),
  price: z.looseObject({ amount: Amount, currency: z.string().min(1) }).optional(),
  eta_seconds: z.number().nonnegative().optional(),
  // "offer.valid_until … Client checks before ACCEPT" (Timeout Rules); the thread machine checks too.
  valid_until: UtcTimestamp.optional(),
});

export const AcceptPayload = z.looseObject({
  request_id: Identifier,
  /**
   * Our extension: the `id` of the OFFER envelope being accepted. The spec's ACCEPT names no
   * offer; without this field the offer is found through `recipient` (decisions-agora.md).
   */
  offer_id: Identifier.optional(),
  accepted_at: UtcTimestamp.optional(),
  terms: z
    .looseObject({
      price_usd: Amount.optional(),
      deadline: UtcTimestamp.optional(),
    })
    .optional(),
});

export const ResultPayload = z.looseObject({
  request_id: Identifier,
  status: z.string().min(1),
  output: z.unknown().optional(),
  artifacts: z.array(z.unknown()).optional(),
  metrics: z
    .looseObject({
      latency_ms: z.number().nonnegative().optional(),
      cost_actual: Amount.optional(),
    })
    .optional(),
});

export const ErrorPayload = z.looseObject({
  // Usually one of the "Error Codes" table, but agents may send their own: any short string.
  code: z.string().min(1).max(128),
  message: z.string(),
  details: JsonObject.optional(),
  // Not in the spec's example; lets a party say which request failed (checked when present).
  request_id: Identifier.optional(),
});

/** CANCEL is named by the state table but has no payload in the spec: ours (decisions-agora.md). */
export const CancelPayload = z.looseObject({
  request_id: Identifier,
  reason: z.string().optional(),
});

export type RequestPayload = z.infer<typeof RequestPayload>;
export type OfferPayload = z.infer<typeof OfferPayload>;
export type AcceptPayload = z.infer<typeof AcceptPayload>;
export type ResultPayload = z.infer<typeof ResultPayload>;
export type ErrorPayload = z.infer<typeof ErrorPayload>;
export type CancelPayload = z.infer<typeof CancelPayload>;
