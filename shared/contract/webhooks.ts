// /api/webhooks: outgoing webhooks (decisions-server.md, "Webhooks"). Facilitators add endpoints
// for inbox events; each delivery is signed (Switchboard-Signature, Stripe's scheme) and retried
// with backoff; the list shows each endpoint's recent deliveries. The secret is answered once, by
// the creation, and never again. `WebhookBody` is what a receiver gets.
import { z } from 'zod';
import { InboxItem, InboxKind } from './inbox';
import { operation } from './operation';

/** The events an endpoint subscribes to; `webhook.test` goes only to the endpoint it is sent to. */
export const WEBHOOK_EVENTS = ['inbox.item.added', 'inbox.item.removed'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof WebhookEventType>;
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** At most this many endpoints, console and WEBHOOKS together. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The body of every delivery (its exact bytes are what Switchboard-Signature signs). */
export const WebhookBody = z.object({
  /** The event's id: the same event reaches each endpoint with this id. */
  id: z.string(),
  type: z.union([WebhookEventType, z.literal(WEBHOOK_TEST_EVENT)]),
  /** ISO 8601, UTC. */
  created_at: z.string(),
  /** One readable line, escaped for Slack/Mattermost incoming webhooks (&, <, > as entities). */
  text: z.string(),
  /** The inbox item (null for a test event); its `quote` is agent-written text. */
  data: z.object({ item: InboxItem.nullable() }),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

export const WebhookInput = z.object({
  url: z.string().trim().min(1).max(MAX_WEBHOOK_URL_LENGTH),
  events: z.array(WebhookEventType).min(1).max(WEBHOOK_EVENTS.length),
  kinds: z.array(InboxKind).min(1).max(InboxKind.options.length),
});
export type WebhookInput = z.infer<typeof WebhookInput>;

export const WebhookDeliveryView = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** When a pending delivery is tried next; null once it ended. */
  nextAttemptAt: z.number().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const WebhookEndpointView = z.object({
  id: z.string(),
  /** Observers see only the URL's origin: a URL such as Slack's carries its own credential. */
  url: z.string(),
  events: z.array(z.string()),
  kinds: z.array(z.string()),
  origin: z.enum(['env', 'console']),
  removable: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.number(),
  disabled: z.boolean(),
  /** The newest deliveries first. */
  deliveries: z.array(WebhookDeliveryView),
});
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

export const WebhookList = z.object({
  endpoints: z.array(WebhookEndpointView),
  maxEndpoints: z.number().int(),
});
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookCreated = z.object({
  endpoint: WebhookEndpointView,
  /** `whsec_…`: shown this once; the server keeps it to sign and never answers it again. */
  secret: z.string(),
});
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WebhookTestSent = z.object({ eventId: z.string(), deliveryId: z.string() });
export type WebhookTestSent = z.infer<typeof WebhookTestSent>;

const FACILITATOR = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN, CSRF_REJECTED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

export const WEBHOOK_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/webhooks',
    errors: 'coded',
    summary: 'Webhook endpoints with their recent deliveries (the delivery log)',
    responses: { 200: { description: 'Endpoints', schema: WebhookList } },
    refusals: { 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'post',
    path: '/api/webhooks',
    errors: 'coded',
    summary: 'Add a webhook endpoint (facilitator); the answer carries its secret, once',
    body: WebhookInput,
    responses: { 201: { description: 'Added, with the signing secret', schema: WebhookCreated } },
    refusals: { ...FACILITATOR, 409: 'CONFLICT' },
  }),
  operation({
    method: 'delete',
    path: '/api/webhooks/{id}',
    errors: 'coded',
    summary: 'Remove an endpoint added in the console, with its outbox (facilitator)',
    responses: { 204: { description: 'Removed' } },
    refusals: { ...FACILITATOR, 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'post',
    path: '/api/webhooks/{id}/test',
    errors: 'coded',
    summary: 'Send a test event to one endpoint (facilitator)',
    responses: { 202: { description: 'Enqueued', schema: WebhookTestSent } },
    refusals: { ...FACILITATOR, 404: 'NOT_FOUND' },
  }),
];
