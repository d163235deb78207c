// The compiled server as a child process, a real receiver, and a SIGKILL in the middle: one
// delivery done, one waiting for its retry, one on the wire unanswered. After the restart on the
// same data directory every delivery is answered 2xx exactly once, the finished one is never sent
// again, and only the unanswered one is sent twice, under the same delivery id (at least once).
// Test events sent through the API stand in for inbox events, so the test chooses when each is
// made; they take the same outbox, lease and dispatcher (webhook-runtime.test.ts sends a real one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebhookCreated, WebhookList, WebhookTestSent } from '@shared/contract/webhooks';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { killed, startServerProcess, type ServerProcess } from '../test-support/server-process';
import { sessionCookie } from '../test-support/sessions';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { verifyWebhookSignature } from './signature';

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-webhook-kill-'));
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const ENV = {
  DATA_DIR: dataDir,
  ALLOW_PRIVATE_WEBHOOK_URLS: '1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_RETRY_DELAYS_MS: '1500,1500,1500,1500,1500,1500',
};
let server: ServerProcess | undefined;
let receiver: WebhookReceiver | undefined;

afterAll(async () => {
  if (server) await killed(server.child);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('webhooks through a crash', () => {
  it('loses no delivery and answers none twice across a SIGKILL and a restart', async () => {
    let mode: 'ok' | 'fail' | 'hold' = 'ok';
    receiver = await startWebhookReceiver(() => (mode === 'ok' ? 200 : mode === 'fail' ? 503 : 'hold'));
    server = await startServerProcess(ENV);
    const setup = new SqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
    const cookie = await sessionCookie(setup, FACILITATOR, 'facilitator');
    await setup.close();
    const api = (s: ServerProcess, method: string, path: string, body?: unknown) =>
      fetch(`${s.url}/api/webhooks${path}`, {
        method,
        headers: { cookie, origin: s.url, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const deliveries = async (s: ServerProcess) =>
      WebhookList.parse(await (await api(s, 'GET', '')).json()).endpoints[0]!.deliveries;
    const eventually = async (s: ServerProcess, done: (d: Awaited<ReturnType<typeof deliveries>>) => boolean) => {
      for (;;) {
        const d = await deliveries(s);
        if (done(d)) return d;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    const created = await api(server, 'POST', '', {
      url: receiver.url,
      events: ['inbox.item.added', 'inbox.item.removed'],
      kinds: ['review'],
    });
    expect(created.status).toBe(201);
    const { endpoint, secret } = WebhookCreated.parse(await created.json());
    const sendTest = async (s: ServerProcess) =>
      WebhookTestSent.parse(await (await api(s, 'POST', `/${endpoint.id}/test`)).json());

    // 1: delivered before the crash.
    const done = await sendTest(server);
    await eventually(server, (d) => d.some((x) => x.id === done.deliveryId && x.state === 'delivered'));
    // 2: answered 503, waiting for its retry.
    mode = 'fail';
    const retrying = await sendTest(server);
    await eventually(server, (d) => d.some((x) => x.id === retrying.deliveryId && x.attempts === 1));
    // 3: on the wire, never answered.
    mode = 'hold';
    const unanswered = await sendTest(server);
    await receiver.until((r) => r.some((x) => x.deliveryId === unanswered.deliveryId));
    await killed(server.child);
    const beforeRestart = receiver.received.length;

    mode = 'ok';
    server = await startServerProcess(ENV);
    const final = await eventually(server, (d) => d.length === 3 && d.every((x) => x.state === 'delivered'));
    expect(new Set(final.map((d) => d.id))).toEqual(
      new Set([done.deliveryId, retrying.deliveryId, unanswered.deliveryId]),
    );

    const answered2xx = receiver.received.filter((r) => r.status !== null && r.status >= 200 && r.status < 300);
    expect(answered2xx.map((r) => r.deliveryId).sort()).toEqual(
      [done.deliveryId, retrying.deliveryId, unanswered.deliveryId].sort(),
    );
    const sentAfter = receiver.received.slice(beforeRestart).map((r) => r.deliveryId);
    expect(sentAfter).not.toContain(done.deliveryId);
    expect(receiver.received.filter((r) => r.deliveryId === done.deliveryId)).toHaveLength(1);
    expect(receiver.received.filter((r) => r.deliveryId === unanswered.deliveryId).map((r) => r.status)).toEqual([
      null,
      200,
    ]);
    for (const r of receiver.received) {
      const verdict = verifyWebhookSignature(
        secret,
        String(r.headers['switchboard-signature']),
        String(r.headers['switchboard-delivery']),
        r.body,
        Math.floor(Date.now() / 1000),
        120,
      );
      expect(verdict.ok).toBe(true);
      expect(JSON.parse(new TextDecoder().decode(r.body))).toMatchObject({
        type: 'webhook.test',
        data: { item: null },
      });
    }
  });
});
