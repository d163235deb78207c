// /api/webhooks: the endpoints the settings screen edits, with each one's recent deliveries (the
// delivery log), and "send a test". Writes need the facilitator role (and CSRF, app.ts), and are
// bounded per client address and per facilitator DID: each is a destination or a request this
// server will make. The secret is answered once, by the creation (decisions-server.md, "Webhooks").
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WebhookCreated,
  WebhookInput,
  WebhookList,
  WebhookTestSent,
} from '@shared/contract/webhooks';
import { rateLimited } from '../http/error-family';
import type { HttpLimits } from '../http/limits';
import { clientAddress, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { jsonBody } from '../http/request-body';
import { requireSession, type SessionDeps } from '../http/session';
import type { OperatorRole } from '../store/store';
import type { WebhookDelivery, WebhookEndpoint } from '../store/webhook-store';
import { newWebhookSecret } from '../webhooks/signature';
import type { WebhookService } from '../webhooks/webhook-service';
import { normaliseWebhookUrl } from '../webhooks/webhooks-config';

/** An endpoint and a few hundred bytes of filters. */
const MAX_WEBHOOK_BODY_BYTES = 8 * 1024;
/** The delivery log shows each endpoint's newest deliveries. */
const LOG_LENGTH = 20;

export type WebhookLimits = Pick<HttpLimits, 'webhooksPerAddress' | 'webhooksPerDid'>;

const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  state: d.state,
  attempts: d.attempts,
  nextAttemptAt: d.state === 'pending' ? d.nextAttemptAt : null,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** A Slack-style URL is its own credential: observers see where it goes, not the whole of it. */
const shownUrl = (url: string, role: OperatorRole) => (role === 'facilitator' ? url : `${new URL(url).origin}/…`);

export function webhookRoutes(webhooks: WebhookService, session: SessionDeps, limits: WebhookLimits) {
  const store = session.store.webhooks;
  const perAddress = new TokenBucketLimiter({ ...limits.webhooksPerAddress, clock: session.clock });
  const perDid = new TokenBucketLimiter({ ...limits.webhooksPerDid, clock: session.clock });
  const reader = requireSession(session);
  const facilitator = requireSession(session, 'facilitator');
  const byAddress = rateLimit(perAddress, clientAddress);
  const view = async (e: WebhookEndpoint, role: OperatorRole) => ({
    id: e.id,
    url: shownUrl(e.url, role),
    events: e.events,
    kinds: e.kinds,
    origin: e.origin,
    removable: e.origin === 'console',
    createdBy: e.createdBy,
    createdAt: e.createdAt,
    disabled: e.disabled,
    deliveries: (await store.listDeliveries(e.id, LOG_LENGTH)).map(deliveryView),
  });
  const spend = (did: string) => {
    const verdict = perDid.take(did);
    if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'webhook changes by this operator');
  };

  return new Hono()
    .get('/', reader, async (c) => {
      const role = c.get('session').role;
      const endpoints = await Promise.all((await store.listEndpoints()).map((e) => view(e, role)));
      return reply(c, WebhookList, { endpoints, maxEndpoints: MAX_WEBHOOK_ENDPOINTS }, 200);
    })
    .post('/', byAddress, facilitator, jsonBody(WebhookInput, { maxBytes: MAX_WEBHOOK_BODY_BYTES }), async (c) => {
      const { did } = c.get('session');
      spend(did);
      const input = c.req.valid('json');
      const url = normaliseWebhookUrl(input.url);
      if (!url)
        throw new CodedError('INVALID_REQUEST', 'The URL must be http(s), without credentials or fragment.', {
          reason: 'url_invalid',
        });
      await webhooks.admit(url);
      const existing = await store.listEndpoints();
      if (existing.length >= MAX_WEBHOOK_ENDPOINTS)
        throw new CodedError(
          'CONFLICT',
          `There are ${MAX_WEBHOOK_ENDPOINTS} endpoints already, the most this console keeps; remove one first.`,
          { reason: 'too_many_endpoints' },
        );
      if (existing.some((e) => e.url === url))
        throw new CodedError('CONFLICT', 'An endpoint with this URL exists already.', { reason: 'endpoint_exists' });
      const secret = newWebhookSecret();
      const endpoint = await store.putEndpoint({
        id: `whk_${randomUUID()}`,
        url,
        events: [...new Set(input.events)],
        kinds: [...new Set(input.kinds)],
        secret,
        origin: 'console',
        createdBy: did,
        createdAt: session.clock.now(),
        disabled: false,
      });
      return reply(c, WebhookCreated, { endpoint: await view(endpoint, 'facilitator'), secret }, 201);
    })
    .delete('/:id', byAddress, facilitator, async (c) => {
      spend(c.get('session').did);
      const endpoint = await store.getEndpoint(c.req.param('id'));
      if (!endpoint) throw new CodedError('NOT_FOUND', 'No such webhook endpoint.');
      if (endpoint.origin !== 'console')
        throw new CodedError('FORBIDDEN', 'This endpoint comes from WEBHOOKS; change the environment to remove it.', {
          reason: 'endpoint_from_env',
        });
      await store.removeEndpoint(endpoint.id);
      return c.body(null, 204);
    })
    .post('/:id/test', byAddress, facilitator, async (c) => {
      spend(c.get('session').did);
      const sent = await webhooks.sendTest(c.req.param('id'));
      if (!sent) throw new CodedError('NOT_FOUND', 'No such webhook endpoint.');
      return reply(c, WebhookTestSent, sent, 202);
    });
}
