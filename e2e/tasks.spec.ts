// Tasks in the console, end to end, with the demo's calendar agents taking work (DEMO=1,
// DEMO_PACE=calm): the operator assigns a task, then a second one that depends on it; the second
// shows as blocked by the first, then both progress to completed (OACoP §4).
import { expect, test, type Page } from './support/test';
import { snap } from './support/screenshots';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;
let page: Page;

test.beforeAll(async ({ browser }) => {
  // The calm pace: the first task takes several seconds of steps, so the second, which depends on
  // it, is always assigned while it is still open and shows as blocked (at the fast pace the first
  // could finish before the form is filled in again on a loaded machine).
  demo = await openDemoConsole(browser, { pace: 'calm', context: { viewport: { width: 1400, height: 900 } } });
  page = demo.page;
});

test.afterAll(async () => {
  await demo?.close();
});

test('assign a task with a dependency: blocked by it, then progressing to completed', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  const form = page.getByRole('form', { name: 'Assign a task' });
  await expect(form.getByLabel('Assign to').locator('option')).toHaveCount(3, { timeout: 20_000 });
  // By the card's own title (the blocked card names its dependency too).
  const card = (title: string) =>
    page.getByTestId('task-card').filter({ has: page.getByTestId('task-title').getByText(title, { exact: true }) });

  await form.getByLabel('Task title').fill('Collect <i>figures</i>');
  await form.getByLabel('Assign to').selectOption({ label: 'Ada (Berlin)' });
  await form.getByRole('button', { name: 'Sign and assign' }).click();
  await expect(card('Collect <i>figures</i>')).toHaveCount(1, { timeout: 20_000 });

  await form.getByLabel('Task title').fill('Write the report');
  await form.getByLabel('Assign to').selectOption({ label: 'Bruno (New York)' });
  await form.getByLabel('Parent task').selectOption({ label: 'Collect <i>figures</i>' });
  await form.getByRole('checkbox', { name: 'Collect <i>figures</i>' }).check();
  await form.getByRole('button', { name: 'Sign and assign' }).click();

  const report = card('Write the report');
  // Blocked while its dependency is open, naming it.
  await expect(report.getByTestId('task-blocked-by')).toHaveText('Blocked by Collect <i>figures</i>', {
    timeout: 20_000,
  });
  await snap(page, 'tasks-board');
  await expect(card('Collect <i>figures</i>')).toHaveAttribute('data-status', 'COMPLETED', { timeout: 60_000 });
  await expect(report).toHaveAttribute('data-status', /IN_PROGRESS|COMPLETED/, { timeout: 60_000 });
  await expect(report).toHaveAttribute('data-blocked', 'false');
  await expect(report).toHaveAttribute('data-status', 'COMPLETED', { timeout: 60_000 });
  await expect(report.getByTestId('task-progress')).toHaveText('100%');
  // The tree nests the report under its parent task.
  const parent = page
    .getByTestId('task-tree')
    .locator(':scope > [data-testid="task-tree-node"]')
    .filter({ hasText: 'Collect <i>figures</i>' });
  await expect(parent.getByTestId('task-tree-node')).toHaveText(/^Write the report/);
});
