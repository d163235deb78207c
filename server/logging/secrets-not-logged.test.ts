// The compiled server at LOG_LEVEL=debug, through a whole flow that handles every kind of secret
// (decisions-server.md §65): an invite token, session cookies, an agent's MQTT password, the
// metrics bearer token, a webhook secret and a forged cookie. Its whole output is then searched
// for each of them, and for the request lines the flow must have produced.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_CLI } from '../test-support/compiled-entry';
import { connectClient } from '../test-support/mqtt-clients';
import { operatorKey, type Challenge } from '../test-support/operator-key';
import { startServerProcess, stopped, type ServerProcess } from '../test-support/server-process';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const FORGED_COOKIE = 'forged-session-cookie-value-0123456789';
const ENROLL_LINE = /^Enroll the first facilitator: \S+#token=([A-Za-z0-9_-]{43})$/m;

/** `npm run cli` against the server's data directory: one JSON document on stdout. */
function cli(dataDir: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [...SERVER_CLI, ...args, '--json'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as Record<string, unknown>) : reject(new Error(stderr)),
    ),
  );
}

/** The secrets among `secrets` that occur anywhere in `output`. */
const leaked = (output: string, secrets: Readonly<Record<string, string>>) =>
  Object.entries(secrets)
    .filter(([, value]) => output.includes(value))
    .map(([name]) => name);

const sessionCookieOf = (res: Response) => /sb_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

describe('the server log of a whole flow', () => {
  let server: ServerProcess;
  let receiver: WebhookReceiver;
  let dataDir: string;
  let output = '';
  const secrets: Record<string, string> = { metricsToken: METRICS_TOKEN, forgedCookie: FORGED_COOKIE };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-logs-'));
    receiver = await startWebhookReceiver();
    server = await startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      METRICS_TOKEN,
      ALLOW_PRIVATE_WEBHOOK_URLS: '1',
    });
    const base = server.url;
    const write = (path: string, body: unknown, cookie?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const signed = async (key: ReturnType<typeof operatorKey>) => {
      const { challenge } = (await (await fetch(`${base}/api/auth/challenge`)).json()) as { challenge: Challenge };
      return { did: key.did, nonce: challenge.nonce, signature: key.sign(challenge) };
    };

    // An operator enrolls through an invite from the CLI, then signs in again with the same key.
    const invite = await cli(dataDir, ['operators', 'invite', '--role', 'facilitator']);
    const token = /#token=([A-Za-z0-9_-]+)/.exec(String(invite.link))![1]!;
    secrets.inviteToken = token;
    const key = operatorKey();
    const enrolled = await write('/api/auth/enroll', { ...(await signed(key)), token });
    expect(enrolled.status).toBe(200);
    secrets.enrollCookie = sessionCookieOf(enrolled)!;
    const login = await write('/api/auth/login', await signed(key));
    expect(login.status).toBe(200);
    const session = sessionCookieOf(login)!;
    secrets.sessionCookie = session;
    const cookie = `sb_session=${session}`;

    // A room, and an agent from the CLI that sends a heartbeat and a candidate there over MQTT.
    expect((await write('/api/rooms', { id: 'logs', name: 'Logs', moderation: 'auto' }, cookie)).status).toBe(201);
    const agent = await cli(dataDir, ['agents', 'add', 'agent.logs']);
    secrets.agentPassword = String(agent.password);
    const mqtt = await connectClient(server.mqttUrl, { username: 'agent.logs', password: secrets.agentPassword });
    const ts = Math.floor(Date.now() / 1000);
    const from = { kind: 'agent', id: 'agent.logs' };
    const heartbeat = { id: 'hb_logs', type: 'heartbeat', room_id: 'logs', from, ts, payload: { ts, description: '' } };
    const candidate = {
      id: 'ack_logs',
      type: 'result',
      room_id: 'logs',
      from,
      ts,
      payload: { task_id: 't1', message_type: 'ack', content: { text: 'On it' } },
    };
    await mqtt.client.publishAsync('rooms/logs/agents/agent.logs/heartbeat', JSON.stringify(heartbeat), { qos: 1 });
    await mqtt.client.publishAsync('rooms/logs/public_candidates', JSON.stringify(candidate), { qos: 1 });
    await mqtt.client.endAsync(true);

    // Metrics with the bearer token; a webhook whose secret signs a test delivery; a forged cookie.
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const hook = await write(
      '/api/webhooks',
      { url: receiver.url, events: ['inbox.item.added'], kinds: ['question'] },
      cookie,
    );
    expect(hook.status).toBe(201);
    const created = (await hook.json()) as { endpoint: { id: string }; secret: string };
    secrets.webhookSecret = created.secret;
    expect((await write(`/api/webhooks/${created.endpoint.id}/test`, {}, cookie)).status).toBe(202);
    await receiver.until((received) => received.length > 0);
    expect(
      (await fetch(`${base}/api/auth/session`, { headers: { cookie: `sb_session=${FORGED_COOKIE}` } })).status,
    ).toBe(401);
    // A token in a query string reaches the route, never the log.
    await fetch(`${base}/api/rooms/logs/messages?token=${secrets.inviteToken}`, { headers: { cookie } });

    await stopped(server, 'SIGTERM');
    output = server.output();
  }, 60_000);

  afterAll(async () => {
    // A flow that failed half-way left the server running.
    if (server) await stopped(server, 'SIGKILL');
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds no secret used in the flow, and the search would find one', () => {
    expect(Object.keys(secrets).sort()).toEqual(
      [
        'agentPassword',
        'enrollCookie',
        'forgedCookie',
        'inviteToken',
        'metricsToken',
        'sessionCookie',
        'webhookSecret',
      ].sort(),
    );
    expect(leaked(output, secrets)).toEqual([]);
    // The same search over the same output with one line planted finds it.
    const planted = `${output}{"level":"info","msg":"request","cookie":"${secrets.sessionCookie}"}\n`;
    expect(leaked(planted, secrets)).toEqual(['sessionCookie']);
  });

  it('shows the first-start link on one plain line, and nowhere else', () => {
    const firstToken = ENROLL_LINE.exec(output)?.[1];
    expect(firstToken).toBeDefined();
    expect(output.split(firstToken!)).toHaveLength(2);
  });

  it('is JSON lines apart from that link, with a request line for each step', () => {
    const lines = output
      .split('\n')
      .filter((line) => line !== '' && !ENROLL_LINE.test(line))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) expect(line).toMatchObject({ level: expect.any(String), time: expect.any(String) });
    const requests = lines.filter((line) => line.msg === 'request');
    for (const line of requests)
      expect(line).toMatchObject({
        reqId: expect.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/),
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        durationMs: expect.any(Number),
      });
    const seen = requests.map((line) => `${String(line.method)} ${String(line.route)} ${String(line.status)}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /api/auth/enroll 200',
        'POST /api/auth/login 200',
        'POST /api/rooms 201',
        'GET /metrics 200',
        'POST /api/webhooks 201',
        'POST /api/webhooks/:id/test 202',
        'GET /api/auth/session 401',
        'GET /api/rooms/:id/messages 200',
      ]),
    );
    expect(requests.find((line) => line.route === '/metrics')?.level).toBe('debug');
  });
});
