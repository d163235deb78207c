// /api/webhooks through the real app: facilitators add (the secret answered once), remove and
// test endpoints; observers read with URLs cut to their origin; URLs must be public; writes are
// bounded in number and per operator.
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookCreated, WebhookList } from '@shared/contract/webhooks';
import { systemClock } from '../clock';
import type { HttpLimits } from '../http/limits';
import { sessionCookie } from '../test-support/sessions';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { testApp } from '../test-support/test-app';
import { isWebhookSecret } from '../webhooks/signature';
import { WebhookService } from '../webhooks/webhook-service';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';
/** A public address as a literal: admitted without asking a resolver. */
const PUBLIC = 'https://93.184.215.14';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.dispose();
  temp = undefined;
});

async function setup(limits: Partial<HttpLimits> = {}) {
  temp = tempStore();
  const app = testApp({
    store: temp.store,
    limits: { webhooksPerAddress: { capacity: 1e6, refillPerSecond: 1e6 }, ...limits },
  });
  const facilitator = await sessionCookie(temp.store, FACILITATOR, 'facilitator');
  const observer = await sessionCookie(temp.store, OBSERVER, 'observer');
  const call = (method: string, path: string, cookie: string, body?: unknown, origin = 'http://localhost') =>
    app.request(`http://localhost/api/webhooks${path}`, {
      method,
      headers: {
        cookie,
        ...(origin ? { origin } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { call, facilitator, observer, store: temp.store };
}

const input = (url: string) => ({ url, events: ['inbox.item.added'], kinds: ['review', 'cosign'] });

describe('/api/webhooks', () => {
  it('adds an endpoint with its secret once, lists it without, sends a test and removes it', async () => {
    const { call, facilitator, observer, store } = await setup();
    const created = await call('POST', '', facilitator, input(`${PUBLIC}/hooks/T000/B000/XXXX?x=1`));
    expect(created.status).toBe(201);
    const { endpoint, secret } = WebhookCreated.parse(await created.json());
    expect(isWebhookSecret(secret)).toBe(true);
    expect(endpoint).toMatchObject({
      url: `${PUBLIC}/hooks/T000/B000/XXXX?x=1`,
      events: ['inbox.item.added'],
      kinds: ['review', 'cosign'],
      origin: 'console',
      removable: true,
      createdBy: FACILITATOR,
      deliveries: [],
    });
    expect((await store.webhooks.getEndpoint(endpoint.id))?.secret).toBe(secret);

    const listed = await (await call('GET', '', facilitator)).text();
    expect(listed).not.toContain(secret);
    expect(WebhookList.parse(JSON.parse(listed)).endpoints.map((e) => e.url)).toEqual([endpoint.url]);
    const seen = WebhookList.parse(await (await call('GET', '', observer)).json());
    expect(seen.endpoints[0]!.url).toBe(`${PUBLIC}/…`);

    const test = await call('POST', `/${endpoint.id}/test`, facilitator);
    expect(test.status).toBe(202);
    const { deliveryId } = (await test.json()) as { deliveryId: string };
    const after = WebhookList.parse(await (await call('GET', '', facilitator)).json());
    expect(after.endpoints[0]!.deliveries).toMatchObject([
      { id: deliveryId, eventType: 'webhook.test', state: 'pending', attempts: 0 },
    ]);
    expect((await call('POST', '/whk_nope/test', facilitator)).status).toBe(404);

    expect((await call('DELETE', `/${endpoint.id}`, observer)).status).toBe(403);
    expect((await call('DELETE', `/${endpoint.id}`, facilitator)).status).toBe(204);
    expect((await call('DELETE', `/${endpoint.id}`, facilitator)).status).toBe(404);
    expect(await store.webhooks.listDeliveries(endpoint.id, 10)).toEqual([]);
  });

  it('refuses observers, cross-site writes, bad and private URLs, and bad filters', async () => {
    const { call, facilitator, observer } = await setup();
    expect((await call('POST', '', observer, input(`${PUBLIC}/a`))).status).toBe(403);
    const crossSite = await call('POST', '', facilitator, input(`${PUBLIC}/a`), 'https://evil.example');
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { code: string }).code).toBe('CSRF_REJECTED');
    expect((await call('GET', '', '')).status).toBe(401);

    const refused = async (body: unknown) => {
      const res = await call('POST', '', facilitator, body);
      expect(res.status).toBe(400);
      return (await res.json()) as { code: string; details?: { reason?: string } };
    };
    expect((await refused(input('ftp://93.184.215.14/x'))).details?.reason).toBe('url_invalid');
    expect((await refused(input('https://user:pw@93.184.215.14/x'))).details?.reason).toBe('url_invalid');
    expect((await refused(input('http://127.0.0.1:8080/hook'))).details?.reason).toBe('url_not_public');
    expect((await refused(input('http://169.254.169.254/latest'))).details?.reason).toBe('url_not_public');
    expect((await refused(input('http://[::ffff:10.0.0.1]/x'))).details?.reason).toBe('url_not_public');
    // IPv4-compatible and IPv4-mapped forms of loopback (decisions-server.md §81).
    for (const url of ['http://[::127.0.0.1]/hook', 'http://[::7f00:1]/hook', 'http://[::ffff:0:127.0.0.1]/hook'])
      expect((await refused(input(url))).details?.reason).toBe('url_not_public');
    expect((await refused(input(`${PUBLIC}/${'a'.repeat(2100)}`))).code).toBe('INVALID_REQUEST');
    expect((await refused({ ...input(`${PUBLIC}/a`), kinds: [] })).code).toBe('INVALID_REQUEST');
    expect((await refused({ ...input(`${PUBLIC}/a`), kinds: ['everything'] })).code).toBe('INVALID_REQUEST');
    expect((await refused({ ...input(`${PUBLIC}/a`), events: ['inbox.item.updated'] })).code).toBe('INVALID_REQUEST');
  });

  it('keeps at most 20 endpoints, one per URL', async () => {
    const { call, facilitator } = await setup({ webhooksPerDid: { capacity: 1e6, refillPerSecond: 1e6 } });
    for (let i = 0; i < 20; i++)
      expect((await call('POST', '', facilitator, input(`${PUBLIC}/h${i}`))).status).toBe(201);
    const again = await call('POST', '', facilitator, input(`${PUBLIC}/h0`));
    expect(again.status).toBe(409);
    const more = await call('POST', '', facilitator, input(`${PUBLIC}/h20`));
    expect(more.status).toBe(409);
    expect(((await more.json()) as { details: { reason: string } }).details.reason).toBe('too_many_endpoints');
  });

  it('bounds writes per facilitator', async () => {
    const { call, facilitator } = await setup({ webhooksPerDid: { capacity: 2, refillPerSecond: 1 / 3600 } });
    expect((await call('POST', '', facilitator, input(`${PUBLIC}/a`))).status).toBe(201);
    expect((await call('POST', '', facilitator, input(`${PUBLIC}/b`))).status).toBe(201);
    const limited = await call('POST', '', facilitator, input(`${PUBLIC}/c`));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });

  it('does not let the console remove an endpoint from WEBHOOKS', async () => {
    temp = tempStore();
    const webhooks = new WebhookService({ store: temp.store.webhooks, clock: systemClock });
    await webhooks.configure([
      { url: `${PUBLIC}/env`, secret: 'x'.repeat(40), events: ['inbox.item.added'], kinds: ['service'] },
    ]);
    const app = testApp({ store: temp.store, webhooks });
    const cookie = await sessionCookie(temp.store, FACILITATOR, 'facilitator');
    const [env] = await temp.store.webhooks.listEndpoints();
    const res = await app.request(`http://localhost/api/webhooks/${env!.id}`, {
      method: 'DELETE',
      headers: { cookie, origin: 'http://localhost' },
    });
    expect(res.status).toBe(403);
    expect(await temp.store.webhooks.listEndpoints()).toHaveLength(1);
  });
});
