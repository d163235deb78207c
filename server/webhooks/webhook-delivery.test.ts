// Inbox changes to a real HTTP receiver, in process: an in-memory feed stands in for the inbox,
// the store is a real SQLite file, the receiver a real node:http server on an ephemeral port.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxItem } from '@shared/contract/inbox';
import { WebhookBody } from '@shared/contract/webhooks';
import { MemoryInboxFeed } from '../test-support/memory-inbox-feed';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import type { WebhookEndpoint } from '../store/webhook-store';
import { systemClock } from '../clock';
import { newWebhookSecret, verifyWebhookSignature } from './signature';
import { WebhookService } from './webhook-service';

const item = (id: string, kind: InboxItem['kind'], title = `item ${id}`): InboxItem => ({
  id,
  kind,
  urgency: 'now',
  title,
  quote: 'agent text <!channel>',
  since: 1_760_000_000_000,
  dueAt: null,
  href: '/rooms/ops',
  ref:
    kind === 'review'
      ? { kind, roomId: 'ops', candidateId: id, agentId: 'agent.a' }
      : kind === 'cosign'
        ? { kind, negotiationId: id, party: 'did:key:zP', service: null }
        : { kind: 'service', serviceId: id },
  claim: null,
});

let temp: TempStore;
let receiver: WebhookReceiver;
let service: WebhookService | undefined;

const endpoint = (id: string, url: string, patch: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  url,
  events: ['inbox.item.added', 'inbox.item.removed'],
  kinds: ['review'],
  secret: newWebhookSecret(),
  origin: 'console',
  createdBy: 'did:key:zF',
  createdAt: Date.now(),
  disabled: false,
  ...patch,
});

const start = (allowPrivate = true, retryDelaysMs = [30, 30, 30]) => {
  service = new WebhookService({
    store: temp.store.webhooks,
    clock: systemClock,
    sender: { allowPrivate, timeoutMs: 5_000 },
    dispatcher: { retryDelaysMs, pollMs: 50 },
  });
  return service;
};

const settled = async (endpointId: string, count: number) => {
  for (;;) {
    const rows = await temp.store.webhooks.listDeliveries(endpointId, 100);
    if (rows.length >= count && rows.every((r) => r.state !== 'pending')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeEach(async () => {
  temp = tempStore();
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  await receiver.close();
  await temp.dispose();
});

describe('webhook delivery', () => {
  it('delivers each matching inbox change once, signed, to each endpoint that asked for it', async () => {
    const reviews = await temp.store.webhooks.putEndpoint(endpoint('ep_reviews', receiver.url));
    const cosigns = await temp.store.webhooks.putEndpoint(
      endpoint('ep_cosigns', `${receiver.url}?to=cosign`, { kinds: ['cosign'], events: ['inbox.item.added'] }),
    );
    const feed = new MemoryInboxFeed();
    start().start(feed);

    feed.push({ type: 'added', item: item('r1', 'review', 'agent.a <b>waits</b> & more') });
    feed.push({ type: 'added', item: item('c1', 'cosign') });
    feed.push({ type: 'updated', item: item('r1', 'review') });
    feed.push({ type: 'added', item: item('s1', 'service') });
    feed.push({ type: 'removed', item: item('r1', 'review'), settledBy: 'did:key:zF' });
    feed.push({ type: 'removed', item: item('c1', 'cosign'), settledBy: null });
    // The same change again is the same event: not enqueued twice.
    feed.push({ type: 'added', item: item('r1', 'review', 'agent.a <b>waits</b> & more') });

    await receiver.until((r) => r.length >= 3);
    await settled('ep_reviews', 2);
    await settled('ep_cosigns', 1);
    expect(receiver.received).toHaveLength(3);

    const now = Math.floor(Date.now() / 1000);
    const seen = receiver.received.map((r) => {
      const body = WebhookBody.parse(JSON.parse(new TextDecoder().decode(r.body)));
      const key = body.data.item?.kind === 'cosign' ? cosigns.secret : reviews.secret;
      expect(
        verifyWebhookSignature(
          key,
          String(r.headers['switchboard-signature']),
          String(r.headers['switchboard-delivery']),
          r.body,
          now,
          60,
        ).ok,
      ).toBe(true);
      expect(r.headers['switchboard-event']).toBe(body.type);
      expect(r.headers['content-type']).toBe('application/json');
      return { type: body.type, item: body.data.item?.id, text: body.text, delivery: r.deliveryId, id: body.id };
    });
    expect(seen.map((s) => [s.type, s.item]).sort()).toEqual([
      ['inbox.item.added', 'c1'],
      ['inbox.item.added', 'r1'],
      ['inbox.item.removed', 'r1'],
    ]);
    // The readable line is escaped for chat receivers; the item's quote stays as the agent wrote it.
    expect(seen.find((s) => s.item === 'r1' && s.type === 'inbox.item.added')!.text).toBe(
      'Switchboard: agent.a &lt;b&gt;waits&lt;/b&gt; &amp; more',
    );
    const stored = [
      ...(await temp.store.webhooks.listDeliveries('ep_reviews', 10)),
      ...(await temp.store.webhooks.listDeliveries('ep_cosigns', 10)),
    ];
    expect(stored.map((d) => [d.state, d.attempts, d.lastStatus])).toEqual([
      ['delivered', 1, 200],
      ['delivered', 1, 200],
      ['delivered', 1, 200],
    ]);
    expect(new Set(seen.map((s) => s.delivery))).toEqual(new Set(stored.map((d) => d.id)));
    expect(new Set(seen.map((s) => s.id))).toEqual(new Set(stored.map((d) => d.eventId)));
  });

  it('retries a receiver that fails first, under the same delivery id, until it answers 2xx', async () => {
    receiver.answer = (_r, i) => (i < 2 ? 503 : 204);
    await temp.store.webhooks.putEndpoint(endpoint('ep', receiver.url));
    const feed = new MemoryInboxFeed();
    start().start(feed);
    feed.push({ type: 'added', item: item('r1', 'review') });
    const [row] = await settled('ep', 1);
    expect(row).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 204, lastError: null });
    expect(receiver.received.map((r) => [r.deliveryId, r.status])).toEqual([
      [row!.id, 503],
      [row!.id, 503],
      [row!.id, 204],
    ]);
    // Each attempt is signed afresh over the same bytes.
    expect(new Set(receiver.received.map((r) => new TextDecoder().decode(r.body))).size).toBe(1);
  });

  it('ends a delivery failed once its retries are used up, with the last status and error', async () => {
    receiver.answer = () => 500;
    await temp.store.webhooks.putEndpoint(endpoint('ep', receiver.url));
    const s = start(true, [20]);
    s.start();
    const sent = await s.sendTest('ep');
    expect(sent).toBeDefined();
    const [row] = await settled('ep', 1);
    expect(row).toMatchObject({
      id: sent!.deliveryId,
      eventId: sent!.eventId,
      eventType: 'webhook.test',
      state: 'failed',
      attempts: 2,
      lastStatus: 500,
      lastError: 'answered 500',
    });
    expect(receiver.received).toHaveLength(2);
    expect(await s.sendTest('nope')).toBeUndefined();
  });

  it('refuses a private address unless allowed, both when registering and when sending', async () => {
    await temp.store.webhooks.putEndpoint(endpoint('ep', receiver.url));
    const s = start(false, []);
    await expect(s.admit(receiver.url)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(s.admit('http://localhost:9/hook')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    s.start();
    await s.sendTest('ep');
    const [row] = await settled('ep', 1);
    expect(row).toMatchObject({ state: 'failed', attempts: 1, lastStatus: null });
    expect(row!.lastError).toMatch(/^refused: .*not a public address/);
    expect(receiver.received).toHaveLength(0);
  });

  it("sends an administrator's WEBHOOKS endpoint on a private address, and drops it once unlisted", async () => {
    const s = start(false);
    const secret = newWebhookSecret();
    await s.configure([{ url: receiver.url, secret, events: ['inbox.item.added'], kinds: ['service'] }]);
    const [env] = await temp.store.webhooks.listEndpoints();
    expect(env).toMatchObject({ origin: 'env', url: receiver.url, createdBy: null });
    s.start();
    await s.sendTest(env!.id);
    await settled(env!.id, 1);
    expect(receiver.received).toHaveLength(1);
    expect(
      verifyWebhookSignature(
        secret,
        String(receiver.received[0]!.headers['switchboard-signature']),
        String(receiver.received[0]!.headers['switchboard-delivery']),
        receiver.received[0]!.body,
        Math.floor(Date.now() / 1000),
      ).ok,
    ).toBe(true);
    await s.configure([]);
    expect(await temp.store.webhooks.listEndpoints()).toEqual([]);
  });
});
