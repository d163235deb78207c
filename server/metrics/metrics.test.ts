// GET /metrics on a real process (embedded broker, SQLite, HTTP): real traffic moves the series
// an operator alerts on, read back through a Prometheus text parser, and the endpoint is served
// only to the bearer of METRICS_TOKEN.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentA, client, signed } from '@shared/agora/test-support/fixtures';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { connectClient } from '../test-support/mqtt-clients';
import { operatorKey } from '../test-support/operator-key';
import { sessionCookie } from '../test-support/sessions';
import { tempStore } from '../test-support/temp-store';
import { testApp } from '../test-support/test-app';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { newWebhookSecret } from '../webhooks/signature';

const TOKEN = 'metrics-token-0123456789abcdef';
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';

let sb: RunningSwitchboard;
let dataDir: string;
let cookie: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-metrics-'));
  receiver = await startWebhookReceiver();
  sb = await startSwitchboard(
    loadConfig({
      PORT: '0',
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      DEMO: '0',
      METRICS_TOKEN: TOKEN,
      ALLOW_PRIVATE_WEBHOOK_URLS: '1',
    }),
  );
  cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
  await sb.store.access.putAgentCredential({
    agentId: 'agent.metrics',
    passwordHash: await hashPassword('pw'),
    createdAt: Date.now(),
  });
});

afterAll(async () => {
  await sb?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(sb.url + path, {
    ...init,
    headers: { cookie, origin: sb.url, 'content-type': 'application/json', ...init.headers },
  });

async function scrape(): Promise<ParsedFamily[]> {
  const res = await fetch(`${sb.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await res.text());
}

/**
 * One series' value (a histogram's count), 0 when the series is absent. The parser folds a
 * labelled histogram's series into one sample of buckets without labels: a histogram is read by
 * its +Inf bucket, and this process has one series per histogram (one store engine).
 */
function valueOf(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const sample =
    family?.type === 'HISTOGRAM'
      ? family.metrics[0]
      : family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) return 0;
  return Number(family!.type === 'HISTOGRAM' ? (sample.count ?? sample.buckets?.['+Inf']) : sample.value);
}

const read = async (name: string, labels?: Record<string, string>) => valueOf(await scrape(), name, labels);

describe('GET /metrics', () => {
  it('is refused without the token, with a wrong one, and with another scheme', async () => {
    const answers = await Promise.all(
      [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`].map((authorization) =>
        fetch(`${sb.url}/metrics`, authorization ? { headers: { authorization } } : {}),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('exposes the process defaults and every switchboard family with its type', async () => {
    const families = await scrape();
    const types = Object.fromEntries(families.map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      switchboard_process_cpu_user_seconds_total: 'COUNTER',
      switchboard_gateway_decisions_total: 'COUNTER',
      switchboard_room_messages_recorded_total: 'COUNTER',
      switchboard_relay_envelopes_total: 'COUNTER',
      switchboard_relay_long_polls_waiting: 'GAUGE',
      switchboard_relay_long_poll_wakeup_seconds: 'HISTOGRAM',
      switchboard_mqtt_connections: 'GAUGE',
      switchboard_store_commit_seconds: 'HISTOGRAM',
      switchboard_operator_sessions_opened_total: 'COUNTER',
      switchboard_webhook_deliveries_total: 'COUNTER',
    });
  });

  it('counts a candidate the gateway refuses, the agent connection, and the commit that stored it', async () => {
    expect(
      (await api('/api/rooms', { method: 'POST', body: JSON.stringify({ id: 'metrics', name: 'M' }) })).status,
    ).toBe(201);
    const before = await scrape();
    const agent = await connectClient(sb.mqttUrl, { username: 'agent.metrics', password: 'pw' });
    try {
      expect(await read('switchboard_mqtt_connections', { kind: 'agent' })).toBe(1);
      const candidate = JSON.stringify({
        id: 'c_nogrant',
        type: 'result',
        room_id: 'metrics',
        from: { kind: 'agent', id: 'agent.metrics' },
        ts: Math.floor(Date.now() / 1000),
        payload: { task_id: 't1', message_type: 'ack', content: { text: 'unasked' } },
      });
      await agent.client.publishAsync('rooms/metrics/public_candidates', candidate, { qos: 1 });
      const rejected = { outcome: 'reject', reason: 'no_mic_grant' };
      await expect
        .poll(() => read('switchboard_gateway_decisions_total', rejected))
        .toBe(valueOf(before, 'switchboard_gateway_decisions_total', rejected) + 1);
      const after = await scrape();
      expect(valueOf(after, 'switchboard_gateway_decisions_total', { outcome: 'approve' })).toBe(
        valueOf(before, 'switchboard_gateway_decisions_total', { outcome: 'approve' }),
      );
      expect(valueOf(after, 'switchboard_room_messages_recorded_total', { topic_kind: 'control' })).toBe(
        valueOf(before, 'switchboard_room_messages_recorded_total', { topic_kind: 'control' }) + 1,
      );
      expect(valueOf(after, 'switchboard_store_commit_seconds', { engine: 'sqlite' })).toBeGreaterThan(
        valueOf(before, 'switchboard_store_commit_seconds', { engine: 'sqlite' }),
      );
    } finally {
      await agent.client.endAsync(true);
    }
    await expect.poll(() => read('switchboard_mqtt_connections', { kind: 'agent' })).toBe(0);
  });

  it('counts envelopes accepted and refused by code, and a long-poll woken by one', async () => {
    const post = (body: string) =>
      fetch(`${sb.url}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const before = await scrape();
    const head = (await (await fetch(`${sb.url}/events?since=cur_0&timeout=0`)).json()) as { cursor: string };
    const waiting = fetch(`${sb.url}/events?since=${head.cursor}&timeout=30`);
    await expect.poll(() => read('switchboard_relay_long_polls_waiting')).toBe(1);

    const request = signed('REQUEST', { from: client, to: agentA, thread: 'th_metrics', ts: Date.now() });
    expect((await post(JSON.stringify(request))).status).toBe(200);
    expect(((await (await waiting).json()) as { events: unknown[] }).events).toHaveLength(1);
    const forged = { ...signed('REQUEST', { from: client, to: agentA, thread: 'th_forged', ts: Date.now() }) };
    const refused = await post(JSON.stringify({ ...forged, payload: { ...forged.payload, intent: 'changed' } }));
    expect(refused.status).toBe(403);
    const code = ((await refused.json()) as { code: string }).code;

    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      valueOf(after, 'switchboard_relay_envelopes_total', labels) -
      valueOf(before, 'switchboard_relay_envelopes_total', labels);
    expect(moved({ outcome: 'accepted' })).toBe(1);
    expect(moved({ outcome: 'refused', code })).toBe(1);
    expect(valueOf(after, 'switchboard_relay_long_polls_waiting')).toBe(0);
    expect(valueOf(after, 'switchboard_relay_long_poll_wakeup_seconds')).toBe(
      valueOf(before, 'switchboard_relay_long_poll_wakeup_seconds') + 1,
    );
  });

  it('counts an operator login', async () => {
    const key = operatorKey();
    await sb.store.access.putOperator({ did: key.did, role: 'observer', createdAt: Date.now() });
    const before = await read('switchboard_operator_sessions_opened_total', { how: 'login' });
    const { challenge } = (await (await fetch(`${sb.url}/api/auth/challenge`)).json()) as {
      challenge: { nonce: string };
    };
    const login = await fetch(`${sb.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: sb.url },
      body: JSON.stringify({ did: key.did, nonce: challenge.nonce, signature: key.sign(challenge) }),
    });
    expect(login.status).toBe(200);
    expect(await read('switchboard_operator_sessions_opened_total', { how: 'login' })).toBe(before + 1);
  });

  it('counts a webhook test delivered', async () => {
    await sb.store.webhooks.putEndpoint({
      id: 'ep_metrics',
      url: receiver.url,
      events: ['inbox.item.added'],
      kinds: ['grant'],
      secret: newWebhookSecret(),
      origin: 'console',
      createdBy: FACILITATOR,
      createdAt: Date.now(),
      disabled: false,
    });
    const before = await read('switchboard_webhook_deliveries_total', { outcome: 'delivered' });
    expect((await api('/api/webhooks/ep_metrics/test', { method: 'POST' })).status).toBe(202);
    await expect
      .poll(() => read('switchboard_webhook_deliveries_total', { outcome: 'delivered' }), { timeout: 15_000 })
      .toBe(before + 1);
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /metrics in the contract and the configuration', () => {
  it('is listed in /openapi.json as a text answer', async () => {
    const doc = (await (await fetch(`${sb.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    expect(Object.keys(doc.paths['/metrics']?.get?.responses['200']?.content ?? {})).toEqual([
      'text/plain; version=0.0.4; charset=utf-8',
    ]);
  });

  it('refuses a METRICS_TOKEN too short to be a credential, or holding a space', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'sixteen chars and more' })).toThrow(/without spaces/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers 404 on the public port, like an unknown path', async () => {
    const store = tempStore();
    try {
      const app = testApp({ store: store.store });
      const res = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await store.dispose();
    }
  });
});
