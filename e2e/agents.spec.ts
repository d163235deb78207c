// The Agents screen (/fleet): a facilitator creates a credential in the console and copies its
// password, shown once; an agent connects with it over real MQTT and the screen shows it online;
// "Disconnect now" closes that connection. An observer sees the same list without any action.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type BrowserContext, type Page } from './support/test';
import mqtt, { type MqttClient } from 'mqtt';
import { SERVER_CLI } from '../server/test-support/compiled-entry';
import { enrollNewKey } from './support/operators';
import { snap, snapAtBothWidths } from './support/screenshots';
import { startServer, type RunningServer } from './support/server';
import { wordsSplitAcrossLines } from './support/word-breaks';

test.describe.configure({ mode: 'serial' });

const run = promisify(execFile);
const AGENT = 'agent.fleet';

let server: RunningServer;
let context: BrowserContext;
let page: Page;
let agent: MqttClient | undefined;
let password = '';
// The facilitator has a name, so the rows can be seen to say who acted by it.
const OPERATOR = 'Dana';

test.beforeAll(async ({ browser }) => {
  server = await startServer({ DEMO: '0' }, { enrollLinkWaitMs: 10_000 });
  if (!server.enrollUrl) throw new Error(`No enrollment link:\n${server.log()}`);
  context = await browser.newContext({ baseURL: server.url });
  page = await context.newPage();
  await enrollNewKey(page, server.enrollUrl, 'Facilitator', OPERATOR);
});

test.afterAll(async () => {
  await agent?.endAsync(true);
  await context?.close();
  await server?.stop();
});

/** An enrollment link for this journey's own server, from the operators CLI. */
async function invite(role: 'observer'): Promise<string> {
  const { stdout } = await run(process.execPath, [...SERVER_CLI, 'operators', 'invite', '--role', role, '--json'], {
    env: { ...process.env, DATA_DIR: server.dataDir },
    timeout: 20_000,
  });
  const token = /#token=([A-Za-z0-9_-]+)/.exec(stdout)?.[1];
  if (!token) throw new Error(`operators invite printed no link:\n${stdout}`);
  return new URL(`/enroll#token=${token}`, server.url).toString();
}

test('a facilitator creates an agent and sees its password once, with where and how to connect', async () => {
  await page.goto('/fleet');
  await expect(page.getByRole('heading', { name: 'Agents', exact: true })).toBeVisible();
  await expect(page.getByText('No agent has a credential yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New agent' });
  await dialog.getByLabel('Agent id').fill('bad/id');
  await expect(dialog.getByText('without spaces, control characters')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create credential' })).toBeDisabled();
  await dialog.getByLabel('Agent id').fill(AGENT);
  await dialog.getByRole('button', { name: 'Create credential' }).click();

  const issued = page.getByRole('dialog', { name: `Credential for ${AGENT}` });
  password = (await issued.getByTestId('issued-password').textContent()) ?? '';
  expect(password.length).toBeGreaterThan(20);
  await expect(issued.getByTestId('issued-mqtt-url')).toHaveText(server.mqttUrl!);
  await expect(issued.getByText(`mosquitto_sub -h`)).toBeVisible();
  // The three ways of examples/, each with the credential filled in (docs/mcp.md for MCP).
  const ways = issued.getByTestId('connect-ways').getByRole('listitem');
  await expect(ways).toHaveCount(3);
  await expect(ways.filter({ hasText: 'MCP (LLM agents)' })).toContainText(
    `SWITCHBOARD_URL='${server.url}' AGENT_ID='${AGENT}' AGENT_PASSWORD='${password}'`,
  );
  await expect(ways.filter({ hasText: 'Python (paho-mqtt)' })).toContainText('examples/python/aor_agent.py');
  await expect(ways.filter({ hasText: 'TypeScript (agent client)' })).toContainText(`MQTT_URL='${server.mqttUrl!}'`);
  await expect(issued.getByText("won't be shown again")).toBeVisible();
  await snap(page, 'agents-password-once', { fullPage: false });
  await issued.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator(`[data-agent="${AGENT}"]`).getByTestId('agent-status')).toHaveText('Offline');
  expect(await page.content()).not.toContain(password);
});

test('the agent connects with it over MQTT, the screen shows it online, and Disconnect now closes it', async () => {
  agent = await mqtt.connectAsync(server.mqttUrl!, {
    username: AGENT,
    password,
    clientId: AGENT,
    protocolVersion: 5,
    reconnectPeriod: 0,
  });
  const row = page.locator(`[data-agent="${AGENT}"]`);
  await expect(row.getByTestId('agent-status')).toHaveText('Online · 1 connection');
  // How many there are comes from the server's counts, not from the rows loaded.
  await expect(page.getByTestId('agent-counts')).toHaveText('1 agent · 1 online · 0 suspended');
  await expect(page.getByTestId('agents-shown')).toHaveText('Showing 1 of 1');
  await snapAtBothWidths(page, 'agents-online');

  const closed = new Promise<void>((resolve) => agent!.once('close', () => resolve()));
  await row.getByRole('button', { name: `Disconnect ${AGENT} now` }).click();
  await closed;
  await expect(row.getByTestId('agent-status')).toHaveText('Offline');
});

test('Suspend asks a reason, shows it on the row, and Resume lifts it', async () => {
  const row = page.locator(`[data-agent="${AGENT}"]`);
  await row.getByRole('button', { name: `Suspend ${AGENT}` }).click();
  const dialog = page.getByRole('dialog', { name: `Suspend ${AGENT}?` });
  await expect(dialog.getByRole('button', { name: 'Suspend' })).toBeDisabled();
  await dialog.getByLabel('Reason').fill('<b>floods</b> the room');
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row.getByTestId('agent-status')).toHaveText('Suspended');
  await expect(page.getByTestId('agent-counts')).toHaveText('1 agent · 0 online · 1 suspended');
  // Agent-facing text is rendered as text.
  await expect(row.getByTestId('agent-suspension')).toContainText('“<b>floods</b> the room”');
  // Who and when, in words (decisions-server.md §83).
  await expect(row.getByTestId('agent-suspension')).toHaveText(
    new RegExp(`^Suspended by ${OPERATOR} (just now|\\d+ seconds? ago): “<b>floods</b> the room”$`),
  );
  // The reason narrows the table at 1440 px; its headers and the agent's id still break only
  // between words or after a separator, never inside a word (decisions-web.md §40).
  await page.setViewportSize({ width: 1440, height: 900 });
  const cells = page.getByRole('table', { name: 'Agents' }).locator('thead th, tbody th');
  await expect(cells).toHaveCount(8);
  expect(await wordsSplitAcrossLines(cells)).toEqual([]);
  await snapAtBothWidths(page, 'agents-suspended');
  await row.getByRole('button', { name: `Resume ${AGENT}` }).click();
  await expect(row.getByTestId('agent-status')).toHaveText('Offline');
  // After the resume the row still says who suspended it and why.
  await expect(row.getByTestId('agent-suspension')).toHaveText(
    new RegExp(
      `^Resumed by ${OPERATOR} (just now|\\d+ seconds? ago); suspended by ${OPERATOR} (just now|\\d+ seconds? ago): “<b>floods</b> the room”$`,
    ),
  );
  await snapAtBothWidths(page, 'agents-resumed');
  // The row's Activity link is the log filtered to this agent: both actions are there.
  await row.getByTestId('agent-activity-link').click();
  await expect(page.getByRole('heading', { name: 'Activity', exact: true })).toBeVisible();
  const entries = page.getByTestId('activity-entry');
  await expect(entries.filter({ hasText: 'Resumed' }).first()).toBeVisible();
  await expect(entries.filter({ hasText: 'floods' }).first()).toBeVisible();
  await page.goto('/fleet');
});

test('the list finds an agent by the first characters of its id', async () => {
  const find = page.getByRole('searchbox', { name: 'Find by agent id' });
  await find.fill('agent.fl');
  await expect(page.getByTestId('agents-shown')).toHaveText('1 whose id starts with “agent.fl”');
  await expect(page.locator(`[data-agent="${AGENT}"]`)).toBeVisible();
  await find.fill('agent.nobody');
  await expect(page.getByText('No agent id starts with “agent.nobody”.')).toBeVisible();
  await find.fill('has space');
  await expect(page.getByText('An agent id has no spaces')).toBeVisible();
  await find.fill('');
  await expect(page.locator(`[data-agent="${AGENT}"]`)).toBeVisible();
  await expect(page.getByTestId('agent-counts')).toHaveText('1 agent · 0 online · 0 suspended');
  // The palette asks for agents by the same prefix, and its entry finds the row by id.
  await page.goto('/');
  // The header's button (Ctrl K is the accessibility journey's): a key pressed before the console
  // has started would reach nothing.
  await page.getByRole('button', { name: /^Find/ }).click();
  const palette = page.getByRole('dialog', { name: /Find a screen, room/ });
  await palette.getByRole('combobox').fill('agent.fle');
  await expect(palette.getByRole('option', { name: new RegExp(AGENT) })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/fleet#agent-agent\.fleet$/);
  await expect(page.getByRole('searchbox', { name: 'Find by agent id' })).toHaveValue(AGENT);
  await expect(page.locator(`[data-agent="${AGENT}"]`)).toBeVisible();
});

test('an observer sees the agents and no action', async ({ browser }) => {
  const observer = await browser.newContext({ baseURL: server.url });
  const observerPage = await observer.newPage();
  await enrollNewKey(observerPage, await invite('observer'), 'Observer');
  await observerPage.goto('/fleet');
  await expect(observerPage.locator(`[data-agent="${AGENT}"]`)).toBeVisible();
  await expect(observerPage.getByRole('button', { name: 'New agent' })).toHaveCount(0);
  await expect(observerPage.getByRole('button', { name: /Disconnect|Suspend|Rotate|Remove/ })).toHaveCount(0);
  await observer.close();
});
