// The room health panel on the demo room, against a server of its own with the demo agents on
// (DEMO=1, fast pace): messages per minute and rejects by reason over zero, the rogue ranked
// first with Suspend one click away (a dialog asking the reason, already written), charts drawn
// under the CSP without a violation and readable as text, and a phone's width not widened.
import { expect, test, type Page } from '@playwright/test';
import { snap } from './support/screenshots';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

let demo: DemoConsole;
let page: Page;
const cspViolations: string[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
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
  // Charts drawn, stylesheet loaded: nothing the panel did broke the CSP. (Opening any of the
  // console's dialogs does, below: Radix's scroll lock writes a <style> element, which the CSP
  // blocks; the lock still holds, only its scrollbar-gap padding is lost.)
  expect(cspViolations).toEqual([]);

  // Suspend is one click away, behind a dialog that asks why (the suspension itself is the
  // agent-accounts journey's).
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
  expect(cspViolations.every((v) => v.includes('style-src'))).toBe(true);
  cspViolations.length = 0;
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
