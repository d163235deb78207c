// Server faults, the browser's side: the server (and with it the embedded broker) is killed and
// restarted on the same ports and data directory while a facilitator has a room open, and
// messages are approved while the console is still cut off. The console says it is reconnecting,
// comes back by itself, and fills the gap from history by cursor: the messages in order, none
// twice, without a reload. Then the same for the browser alone losing its network, and for a
// restart of an external Mosquitto (MQTT_URL).
//
// The browser reaches the server through a proxy the journey can cut (support/cuttable-proxy.ts
// says why not `context.setOffline`): cut, the console cannot reconnect early, so the messages
// approved meanwhile can only reach it through the backfill.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Browser, type BrowserContext, type Page } from './support/test';
import { startPrivateMosquitto, type PrivateMosquitto } from '../server/test-support/private-mosquitto';
import { connectTestAgent, type TestAgent } from './support/agents';
import { startCuttableProxy, type CuttableProxy } from './support/cuttable-proxy';

// Every journey here takes the server, the broker or the browser's network away for a while: the
// console's requests meanwhile fail on the network, which the browser logs.
test.use({ allowConsoleErrors: [/net::ERR_/] });
import { enrollFirstFacilitator } from './support/demo-console';
import { startServer, type RunningServer } from './support/server';
import { shownMessageIds, storedMessageIds } from './support/timeline';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('reconnect');
const AGENT = 'agent.reconnect';
/** The console retries with backoff; after a few failed attempts the next one is seconds away. */
const RECONNECTED = { timeout: 45_000 };

declare global {
  interface Window {
    /** Set once on the open page: still there at the end means the page was never reloaded. */
    reconnectJourney?: true;
  }
}

/** A server of the journey's own, a facilitator behind the proxy with the room open, a granted agent. */
interface Journey {
  readonly server: RunningServer;
  readonly proxy: CuttableProxy;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly agent: TestAgent;
  readonly taskId: string;
  /** Where the agent publishes candidates: per agent with an external broker. */
  readonly candidateTopic: string;
}

async function openJourney(
  browser: Browser,
  env: Record<string, string>,
  externalBrokerEnv?: Record<string, string>,
): Promise<Journey> {
  const server = await startServer({ DEMO: '0', ...env }, { enrollLinkWaitMs: 10_000 });
  if (!server.enrollUrl || !server.mqttUrl)
    throw new Error(`The server printed no enrollment link or MQTT address:\n${server.log()}`);
  const proxy = await startCuttableProxy(server.url);
  const context = await browser.newContext({ baseURL: proxy.url });
  const page = await context.newPage();
  const enroll = new URL(server.enrollUrl);
  await enrollFirstFacilitator(page, new URL(enroll.pathname + enroll.hash, proxy.url).toString());
  const created = await page.evaluate(async (room) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: room, name: 'Reconnect room' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  const agent = await connectTestAgent(AGENT, {
    mqttUrl: server.mqttUrl,
    dataDir: server.dataDir,
    ...(externalBrokerEnv ? { externalBrokerEnv } : {}),
  });

  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await page.evaluate(() => (window.reconnectJourney = true));
  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill('Keep talking through restarts');
  await page.getByLabel('Budget (messages)').fill('100');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  const taskId = (task.payload as { task_id: string }).task_id;
  await agent.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'mic_grant' &&
      (e.payload as { task_id: string }).task_id === taskId,
  );
  const candidateTopic = externalBrokerEnv
    ? `rooms/${ROOM}/public_candidates/${AGENT}`
    : `rooms/${ROOM}/public_candidates`;
  return { server, proxy, context, page, agent, taskId, candidateTopic };
}

async function closeJourney(j: Journey | undefined): Promise<void> {
  await j?.agent.close();
  await j?.context.close();
  await j?.proxy.close();
  await j?.server.stop();
}

/**
 * Publishes a candidate and resolves once the gateway approved it onto the public topic. With
 * `retryEveryMs`, the same envelope (same id) is sent again until then: a broker that just came
 * back drops what arrives before the server has subscribed again, and the gateway decides a
 * candidate it already holds only once.
 */
async function approved(j: Journey, text: string, retryEveryMs?: number): Promise<string> {
  const id = `msg_${randomUUID()}`;
  const envelope = JSON.stringify({
    id,
    type: 'result',
    room_id: ROOM,
    from: { kind: 'agent', id: AGENT },
    ts: Math.floor(Date.now() / 1000),
    payload: { task_id: j.taskId, message_type: 'progress', content: { text } },
  });
  const isIt = (topic: string, e: Record<string, unknown>) => topic === `rooms/${ROOM}/public` && e.id === id;
  for (let attempt = 1; ; attempt++) {
    await j.agent.client.publishAsync(j.candidateTopic, envelope, { qos: 1 });
    if (!retryEveryMs) return j.agent.waitFor(isIt).then(() => id);
    const seen = await j.agent.waitFor(isIt, retryEveryMs).then(
      () => true,
      () => false,
    );
    if (seen) return id;
    if (attempt >= 10) throw new Error(`"${text}" was not approved after ${attempt} attempts`);
  }
}

const row = (j: Journey, text: string) => j.page.getByTestId('public-message').filter({ hasText: text });

/** The console is back, shows `texts` in this order, and shows exactly what the server stored. */
async function expectBackfilled(j: Journey, ids: string[], texts: string[]): Promise<void> {
  await expect(j.page.getByTestId('connection-status')).toHaveText('Live', RECONNECTED);
  await expect(j.page.getByTestId('connection-note')).toHaveCount(0);
  for (const text of texts) await expect(row(j, text)).toHaveCount(1);
  const shown = await shownMessageIds(j.page);
  expect(new Set(shown).size).toBe(shown.length);
  expect(shown.filter((id) => ids.includes(id))).toEqual(ids);
  expect(shown).toEqual(await storedMessageIds(j.page, ROOM));
  expect(await j.page.evaluate(() => window.reconnectJourney)).toBe(true);
}

test.describe('embedded broker', () => {
  let j: Journey;
  test.beforeAll(async ({ browser }) => {
    j = await openJourney(browser, {});
  });
  test.afterAll(() => closeJourney(j));

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    test(`after a ${signal} and a restart, the console reconnects and backfills what it missed`, async () => {
      const a = await approved(j, `${signal}: A, before the stop`);
      await expect(row(j, `${signal}: A, before the stop`)).toBeVisible();

      await j.server.kill(signal);
      // The drop is the server's: the console notices it before the journey cuts anything.
      await expect(j.page.getByTestId('connection-status')).toHaveText('Reconnecting…');
      await expect(j.page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
      // The header's server dot follows at once, not at its next 15 s poll.
      await expect(j.page.getByText('Server unreachable')).toBeVisible();
      await expect(j.page.getByTestId('connection-note')).toContainText('messages sent meanwhile will appear');
      // Held off the network until B and C are stored, so only the backfill can bring them.
      j.proxy.cut();
      await j.server.restart();
      await j.agent.reconnect();
      const b = await approved(j, `${signal}: B, while the console was away`);
      const c = await approved(j, `${signal}: C, while the console was away`);
      await expect(j.page.getByTestId('connection-status')).toHaveText('Reconnecting…');
      await expect(row(j, `${signal}: B`)).toHaveCount(0);
      await j.page.screenshot({ path: `/tmp/w14-reconnecting-${signal}.png`, fullPage: true });

      j.proxy.restore();
      await expectBackfilled(j, [a, b, c], [`${signal}: A`, `${signal}: B`, `${signal}: C`]);
      await expect(j.page.getByText('Server unreachable')).toHaveCount(0);
      await j.page.screenshot({ path: `/tmp/w14-backfilled-${signal}.png`, fullPage: true });
    });
  }

  test('the browser alone loses its network: what arrives meanwhile is there once it is back', async () => {
    const before = await approved(j, 'offline: before');
    await expect(row(j, 'offline: before')).toBeVisible();
    j.proxy.cut();
    await expect(j.page.getByTestId('connection-status')).toHaveText('Reconnecting…');
    const missed = [
      await approved(j, 'offline: one'),
      await approved(j, 'offline: two'),
      await approved(j, 'offline: three'),
    ];
    await expect(row(j, 'offline: one')).toHaveCount(0);
    j.proxy.restore();
    await expectBackfilled(
      j,
      [before, ...missed],
      ['offline: before', 'offline: one', 'offline: two', 'offline: three'],
    );
    await j.page.screenshot({ path: '/tmp/w14-backfilled-offline.png', fullPage: true });
  });
});

test.describe('external Mosquitto (MQTT_URL)', () => {
  let mosquitto: PrivateMosquitto | undefined;
  let j: Journey | undefined;

  test.beforeAll(async ({ browser }) => {
    mosquitto = await startPrivateMosquitto();
    const brokerEnv = {
      MQTT_URL: mosquitto.url,
      MQTT_ADMIN_USERNAME: mosquitto.admin.username,
      MQTT_ADMIN_PASSWORD: mosquitto.admin.password,
      MQTT_PASSWORD: randomBytes(18).toString('base64url'),
      MQTT_CLIENT_ID: `sb-e2e-${randomUUID().slice(0, 8)}`,
    };
    // `cli broker setup` before the first start, as docs/deploy.md has an operator do it.
    const scratch = mkdtempSync(join(tmpdir(), 'switchboard-e2e-setup-'));
    try {
      await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'broker', 'setup', '--json'], {
        env: { ...process.env, ...brokerEnv, DATA_DIR: scratch },
        timeout: 20_000,
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    j = await openJourney(browser, brokerEnv, brokerEnv);
  });
  test.afterAll(async () => {
    await closeJourney(j);
    await mosquitto?.stop();
  });

  test('after Mosquitto restarts, the server and the console reconnect, and the console backfills', async () => {
    const journey = j!;
    const a = await approved(journey, 'mosquitto: A, before the restart');
    await expect(row(journey, 'mosquitto: A')).toBeVisible();
    // The console's WebSocket ends at the server, not at Mosquitto: cut it too, so what is
    // approved during the restart reaches the console only through the backfill.
    journey.proxy.cut();
    await expect(journey.page.getByTestId('connection-status')).toHaveText('Reconnecting…');
    await mosquitto!.restart();
    await journey.agent.reconnect();
    const b = await approved(journey, 'mosquitto: B, while the console was away', 2_000);
    const c = await approved(journey, 'mosquitto: C, while the console was away', 2_000);
    await expect(row(journey, 'mosquitto: B')).toHaveCount(0);
    journey.proxy.restore();
    await expectBackfilled(journey, [a, b, c], ['mosquitto: A', 'mosquitto: B', 'mosquitto: C']);
    // And live again through the server's bridge to the restarted broker.
    const d = await approved(journey, 'mosquitto: D, live after the restart');
    await expect(row(journey, 'mosquitto: D')).toBeVisible();
    expect(await shownMessageIds(journey.page)).toEqual(await storedMessageIds(journey.page, ROOM));
    expect((await shownMessageIds(journey.page)).filter((id) => [a, b, c, d].includes(id))).toEqual([a, b, c, d]);
    await journey.page.screenshot({ path: '/tmp/w14-backfilled-mosquitto.png', fullPage: true });
  });
});
