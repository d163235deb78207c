// The room health panel on the demo room, against a server of its own with the demo agents on
// (DEMO=1, fast pace): messages per minute and rejects by reason over zero, the rogue ranked
// first with Suspend one click away (a dialog asking the reason, already written): suspending it
// disconnects it at once and keeps it out, ending its grants; resuming lets it back in. Charts are
// drawn under the CSP without a violation and readable as text, and a phone's width not widened.
import { AgentAccountAnswer } from '@shared/contract/agents';
import { expect, test, type Page } from './support/test';
import { snap } from './support/screenshots';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;
let page: Page;
const cspViolations: string[] = [];

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { context: { viewport: { width: 1440, height: 900 } } });
  page = demo.page;
  await demo.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  page.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) cspViolations.push(msg.text());
  });
});

test.afterAll(async () => {
  await demo?.close();
});

test('the demo room’s health shows its traffic, rejects by reason and the rogue ranked first', async () => {
  await page.goto('/rooms/demo');
  const panel = page.getByTestId('health-panel');
  const traffic = panel.getByRole('figure', { name: 'Messages per minute, last hour (UTC)' });
  const decisions = panel.getByRole('figure', { name: 'Candidates approved and rejected by reason, last hour' });
  await expect(traffic.locator('figcaption')).toHaveText(
    /^\d+ messages? in the last hour, at most [1-9]\d* in a minute$/,
    {
      timeout: 30_000,
    },
  );
  // The rogue's tricks reach the gateway once the scripted facilitator has given it a task; the
  // panel asks again every 10 s.
  const firstAgent = panel.getByTestId('health-agent').first();
  await expect(firstAgent).toContainText('agent.rogue', { timeout: 60_000 });
  await expect(firstAgent).toContainText(/[1-9]\d* rejects?/);
  await expect(decisions.locator('figcaption')).toHaveText(/, [1-9]\d* rejected \(/);
  // The same as a table for readers: a row per reason, in words.
  await expect(decisions.getByRole('rowheader', { name: /^rejected: / }).first()).toBeAttached();
  await expect(traffic.getByRole('columnheader', { name: 'Messages' })).toBeAttached();
  // Both charts are drawn (uPlot, loaded with the panel).
  await expect(panel.locator('canvas')).toHaveCount(2);
  await expect(panel.getByTestId('health-queue')).toHaveText('Nothing waiting for review');
  // Charts drawn, stylesheet loaded: nothing the panel did broke the CSP.
  expect(cspViolations).toEqual([]);

  // Suspend is one click away, behind a dialog that asks why.
  await page.getByRole('button', { name: 'Suspend agent.rogue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Suspend agent.rogue' });
  await expect(dialog.getByLabel('Reason')).toHaveValue('Repeated rejects in this room');
  await expect(dialog.getByRole('button', { name: 'Suspend', exact: true })).toBeEnabled();
  await snap(page, 'room-health-suspend-dialog', { fullPage: false });
  await dialog.getByLabel('Reason').fill('   ');
  await expect(dialog.getByRole('button', { name: 'Suspend', exact: true })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await panel.scrollIntoViewIfNeeded();
  await snap(page, 'room-health-1440');
  expect(cspViolations).toEqual([]);
});

const rogue = async () => {
  const res = await page.request.get('/api/agent-accounts/agent.rogue');
  expect(res.status()).toBe(200);
  return AgentAccountAnswer.parse(await res.json()).agent;
};

test('suspending the rogue from the panel disconnects it at once and keeps it out; resuming lets it back', async () => {
  const panel = page.getByTestId('health-panel');
  // The demo's rogue is connected over MQTT with its own credential.
  await expect.poll(async () => (await rogue()).connections).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Suspend agent.rogue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Suspend agent.rogue' });
  await dialog.getByLabel('Reason').fill('Keeps sending what it has no grant for');
  await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
  await expect(dialog).toBeHidden();
  const row = panel.getByTestId('health-agent').filter({ hasText: 'agent.rogue' });
  await expect(row).toContainText('Suspended');
  await expect(row.getByRole('button', { name: 'Resume agent.rogue' })).toBeVisible();
  // Disconnected at once (no sweep to wait for), and its reconnections (every 2 s) refused.
  const suspended = await rogue();
  expect(suspended.suspended).toMatchObject({ reason: 'Keeps sending what it has no grant for' });
  expect(suspended.connections).toBe(0);
  expect(suspended.grants).toEqual([]);
  await page.waitForTimeout(2_500);
  expect((await rogue()).connections).toBe(0);
  // The Agents screen says the same, with its rejects of the last hour.
  await page.goto('/fleet');
  const listed = page.locator('[data-agent="agent.rogue"]');
  await expect(listed.getByTestId('agent-status')).toHaveText('Suspended');
  await expect(listed.getByTestId('agent-suspension')).toContainText('Keeps sending what it has no grant for');
  expect(suspended.rejectsLastHour).toBeGreaterThan(0);
  // Resumed from the panel, it reconnects by itself (its client retries a refused CONNECT).
  await page.goto('/rooms/demo');
  await page.getByRole('button', { name: 'Resume agent.rogue' }).click();
  await expect(page.getByRole('button', { name: 'Suspend agent.rogue' })).toBeVisible();
  await expect.poll(async () => (await rogue()).connections, { timeout: 20_000 }).toBeGreaterThan(0);
  expect((await rogue()).suspended).toBeNull();
});

test('at 390 px the panel fits the page and its charts are redrawn in the dark theme', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const panel = page.getByTestId('health-panel');
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.locator('canvas')).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const panelBox = await panel.boundingBox();
  expect(panelBox!.x + panelBox!.width).toBeLessThanOrEqual(390);
  // The canvas follows the panel's width, not the width it was first drawn at.
  const canvas = await panel.locator('canvas').first().boundingBox();
  expect(canvas!.width).toBeLessThanOrEqual(panelBox!.width);
  const drawn = panel.locator('[data-scheme]');
  await expect(drawn).toHaveCount(2);
  for (const chart of await drawn.all()) await expect(chart).toHaveAttribute('data-scheme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
  for (const chart of await drawn.all()) await expect(chart).toHaveAttribute('data-scheme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await snap(page, 'room-health-390');
  expect(cspViolations).toEqual([]);
});
