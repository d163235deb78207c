// Webhooks inside the running process: a real inbox item (a bridged relay that is down) reaches
// an endpoint added through the API, signed; and two dispatchers on one PostgreSQL database (two
// instances) send every row exactly once when nothing crashes.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebhookBody } from '@shared/contract/webhooks';
import { systemClock } from '../clock';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { connectClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';
import { startSwitchboard } from '../runtime/start-switchboard';
import { openPgStore } from '../store/pg/pg-store';
import { usePgDatabase } from '../test-support/pg-database';
import { startWebhookReceiver } from '../test-support/webhook-receiver';
import { newWebhookSecret, verifyWebhookSignature } from './signature';
import { nextAttemptAt } from './webhook-dispatcher';
import { WebhookService } from './webhook-service';

/** A port nothing listens on: the relay there is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const db = usePgDatabase();

describe('webhooks in the runtime', () => {
  it("delivers the inbox's own items: a bridged relay down is signed and sent", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-webhook-runtime-'));
    dirs.push(dataDir);
    const receiver = await startWebhookReceiver();
    const deadPort = await closedPort();
    // The endpoint is the administrator's (WEBHOOKS), so it exists before the bridge finds the relay down.
    const secret = newWebhookSecret();
    const sb = await startSwitchboard(
      loadConfig({
        PORT: '0',
        MQTT_PORT: '0',
        DATA_DIR: dataDir,
        DEMO: '0',
        ALLOW_PRIVATE_WEBHOOK_URLS: '1',
        ALLOW_PRIVATE_SERVICE_URLS: '1',
        EXTERNAL_SERVICES: `relay|Acme relay|http://127.0.0.1:${deadPort}`,
        WEBHOOKS: JSON.stringify([{ url: receiver.url, secret, events: ['inbox.item.added'], kinds: ['service'] }]),
      }),
      { bridge: { backoff: { initialMs: 20, maxMs: 100 }, pollTimeoutS: 1, reconcileMs: 50, probeMs: 50 } },
    );
    try {
      await receiver.until((r) => r.length >= 1, 15_000);
      const [first] = receiver.received;
      expect(
        verifyWebhookSignature(
          secret,
          String(first!.headers['switchboard-signature']),
          String(first!.headers['switchboard-delivery']),
          first!.body,
          Math.floor(Date.now() / 1000),
        ).ok,
      ).toBe(true);
      const body = WebhookBody.parse(JSON.parse(new TextDecoder().decode(first!.body)));
      expect(body.type).toBe('inbox.item.added');
      expect(body.data.item).toMatchObject({ kind: 'service', title: 'Acme relay is down' });
    } finally {
      await sb.close();
      await receiver.close();
    }
  });

  it('sends an inbox item once across a restart: the rebuilt board gives the same event, which the outbox already holds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-webhook-restart-inbox-'));
    dirs.push(dataDir);
    const receiver = await startWebhookReceiver();
    const secret = newWebhookSecret();
    const config = () =>
      loadConfig({
        PORT: '0',
        MQTT_PORT: '0',
        DATA_DIR: dataDir,
        DEMO: '0',
        ALLOW_PRIVATE_WEBHOOK_URLS: '1',
        WEBHOOKS: JSON.stringify([{ url: receiver.url, secret, events: ['inbox.item.added'], kinds: ['rejects'] }]),
      });
    const rejectsOf = () =>
      receiver.received
        .map((r) => WebhookBody.parse(JSON.parse(new TextDecoder().decode(r.body))))
        .filter((b) => b.data.item?.kind === 'rejects');
    let sb = await startSwitchboard(config(), { inboxEveryMs: 100 });
    try {
      await sb.store.access.putAgentCredential({
        agentId: 'agent.rogue',
        passwordHash: await hashPassword('pw'),
        createdAt: Date.now(),
      });
      await sb.store.rooms.ensureRoom({ id: 'ops', name: 'Operations', moderation: 'auto' });
      // Five candidates without a grant: five rejects by the gateway, one "repeated rejects" item.
      const rogue = await connectClient(sb.mqttUrl, { username: 'agent.rogue', password: 'pw' });
      for (let i = 0; i < 5; i++)
        await rogue.client.publishAsync(
          'rooms/ops/public_candidates',
          JSON.stringify({
            id: `cand_${i}`,
            type: 'result',
            room_id: 'ops',
            from: { kind: 'agent', id: 'agent.rogue' },
            ts: Math.floor(Date.now() / 1000),
            payload: { task_id: 'nope', message_type: 'progress', content: { text: `try ${i}` } },
          }),
          { qos: 1 },
        );
      await rogue.client.endAsync(true);
      await receiver.until(() => rejectsOf().length === 1, 15_000);
      const [endpoint] = await sb.store.webhooks.listEndpoints();
      // Settled before the stop: a send cut short by a stop is sent again under its delivery id
      // (at least once, decisions-server.md §59), which webhook-restart.test.ts holds.
      const first = sb;
      while (!(await first.store.webhooks.listDeliveries(endpoint!.id, 50)).some((r) => r.state === 'delivered'))
        await new Promise((r) => setTimeout(r, 20));
      await sb.close();

      // The same data directory: the inbox rebuilds the item from history, and the outbox knows its event.
      sb = await startSwitchboard(config(), { inboxEveryMs: 100 });
      while (!sb.inbox.board.current().some((i) => i.kind === 'rejects')) await new Promise((r) => setTimeout(r, 20));
      // A test event after it: once it is delivered, anything enqueued before it has had its turn.
      const cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
      const sent = await fetch(`${sb.url}/api/webhooks/${endpoint!.id}/test`, {
        method: 'POST',
        headers: { cookie, origin: sb.url, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(sent.status).toBeLessThan(300);
      await receiver.until((r) => r.some((x) => String(x.headers['switchboard-event']) === 'webhook.test'), 15_000);
      expect(rejectsOf()).toHaveLength(1);
      const rows = await sb.store.webhooks.listDeliveries(endpoint!.id, 50);
      expect(rows.filter((r) => r.eventType === 'inbox.item.added')).toHaveLength(1);
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
