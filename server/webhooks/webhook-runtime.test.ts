// Webhooks inside the running process: startSwitchboard handed an inbox feed delivers its changes
// to an endpoint added through the API; and two dispatchers on one PostgreSQL database (two
// instances) send every row exactly once when nothing crashes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InboxItem } from '@shared/contract/inbox';
import { WebhookBody, WebhookCreated } from '@shared/contract/webhooks';
import { systemClock } from '../clock';
import { loadConfig } from '../config';
import { startSwitchboard } from '../runtime/start-switchboard';
import { openPgStore } from '../store/pg/pg-store';
import { MemoryInboxFeed } from '../test-support/memory-inbox-feed';
import { usePgDatabase } from '../test-support/pg-database';
import { sessionCookie } from '../test-support/sessions';
import { startWebhookReceiver } from '../test-support/webhook-receiver';
import { newWebhookSecret, verifyWebhookSignature } from './signature';
import { nextAttemptAt } from './webhook-dispatcher';
import { WebhookService } from './webhook-service';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const db = usePgDatabase();

const item = (id: string): InboxItem => ({
  id,
  kind: 'grant',
  urgency: 'soon',
  title: `agent.writer's mic grant in ops ends soon (${id})`,
  quote: null,
  since: 1_760_000_000_000,
  dueAt: 1_760_000_060_000,
  href: '/rooms/ops',
  ref: { kind: 'grant', roomId: 'ops', grantId: id, agentId: 'agent.writer', expiresAt: 1_760_000_060, budgetLeft: 2 },
  claim: null,
});

describe('webhooks in the runtime', () => {
  it('delivers the changes of the inbox feed the process was started with', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-webhook-runtime-'));
    dirs.push(dataDir);
    const receiver = await startWebhookReceiver();
    const feed = new MemoryInboxFeed();
    const sb = await startSwitchboard(
      loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', ALLOW_PRIVATE_WEBHOOK_URLS: '1' }),
      { inbox: feed },
    );
    try {
      const cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
      const res = await fetch(`${sb.url}/api/webhooks`, {
        method: 'POST',
        headers: { cookie, origin: sb.url, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: receiver.url,
          events: ['inbox.item.added', 'inbox.item.removed'],
          kinds: ['grant'],
        }),
      });
      const { secret } = WebhookCreated.parse(await res.json());
      feed.push({ type: 'added', item: item('g1') });
      feed.push({ type: 'removed', item: item('g1'), settledBy: null });
      await receiver.until((r) => r.length === 2);
      const bodies = receiver.received.map((r) => {
        expect(
          verifyWebhookSignature(
            secret,
            String(r.headers['switchboard-signature']),
            r.body,
            Math.floor(Date.now() / 1000),
          ).ok,
        ).toBe(true);
        return WebhookBody.parse(JSON.parse(new TextDecoder().decode(r.body)));
      });
      expect(bodies.map((b) => b.type).sort()).toEqual(['inbox.item.added', 'inbox.item.removed']);
      expect(bodies.every((b) => b.data.item?.id === 'g1')).toBe(true);
    } finally {
      await sb.close();
      await receiver.close();
    }
  });

  it('lets two instances on one PostgreSQL database share the outbox without sending a row twice', async () => {
    const receiver = await startWebhookReceiver();
    const [a, b] = [await openPgStore({ url: await db.url() }), await openPgStore({ url: await db.url() })];
    const service = (store: typeof a) =>
      new WebhookService({
        store: store.webhooks,
        clock: systemClock,
        sender: { allowPrivate: true, timeoutMs: 5_000 },
        dispatcher: { pollMs: 20, concurrency: 3 },
      });
    const [sa, sb] = [service(a), service(b)];
    try {
      await a.webhooks.putEndpoint({
        id: 'ep',
        url: receiver.url,
        events: ['inbox.item.added'],
        kinds: ['grant'],
        secret: newWebhookSecret(),
        origin: 'console',
        createdBy: FACILITATOR,
        createdAt: Date.now(),
        disabled: false,
      });
      const sent = [];
      for (let i = 0; i < 40; i++) sent.push((await (i % 2 ? sa : sb).sendTest('ep'))!.deliveryId);
      sa.start();
      sb.start();
      await receiver.until((r) => r.length >= 40);
      // Whatever is still leased settles; nothing more arrives.
      for (;;) {
        const rows = await a.webhooks.listDeliveries('ep', 100);
        if (rows.every((r) => r.state === 'delivered')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(receiver.received.map((r) => r.deliveryId).sort()).toEqual([...sent].sort());
    } finally {
      await sa.stop();
      await sb.stop();
      await a.close();
      await b.close();
      await receiver.close();
    }
  });
});

describe('the retry schedule', () => {
  it('waits each delay within ±20 %, then gives up', () => {
    const delays = [10_000, 30_000];
    expect(nextAttemptAt(1, 1000, delays, () => 0)).toBe(1000 + 8_000);
    expect(nextAttemptAt(1, 1000, delays, () => 0.999_999)).toBe(1000 + 12_000);
    expect(nextAttemptAt(2, 1000, delays, () => 0.5)).toBe(1000 + 30_000);
    expect(nextAttemptAt(3, 1000, delays, () => 0.5)).toBeUndefined();
  });
});
