// No dead ends: an empty room says how an agent joins it and makes its credential right there;
// every room, negotiation and meeting links to its story and replay; a room that does not exist
// says so at once, asked once, with the way back.
import { expect, expectConsoleErrors, test } from './support/test';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { snap } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser);
});

test.afterAll(async () => {
  await demo?.close();
});

test('an empty room says how an agent joins, and makes its credential there', async () => {
  const { page } = demo;
  await page.goto('/rooms');
  await page.getByRole('button', { name: 'Create room' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create room' });
  await dialog.getByLabel('Room id').fill('quiet');
  await dialog.getByLabel('Name').fill('Quiet room');
  await dialog.getByRole('button', { name: 'Create room' }).click();
  await expect(page).toHaveURL(/\/rooms\/quiet$/);
  const howTo = page.getByTestId('connect-an-agent');
  await expect(howTo).toContainText(/mqtt:\/\/127\.0\.0\.1:\d+/);
  await expect(howTo).toContainText('rooms/quiet/agents/<agentId>/heartbeat');
  await howTo.getByRole('button', { name: 'Create a credential' }).click();
  const create = page.getByRole('dialog', { name: 'New agent' });
  await create.getByLabel('Agent id').fill('agent.quiet');
  await create.getByRole('button', { name: 'Create credential' }).click();
  await expect(page.getByRole('dialog', { name: 'Credential for agent.quiet' })).toBeVisible();
  await snap(page, 'no-dead-ends-empty-room-credential', { fullPage: false });
});

test('every room, negotiation and meeting links to its story and replay', async () => {
  const { page } = demo;
  await page.goto('/rooms/demo');
  await page.getByRole('link', { name: 'Story & replay' }).click();
  await expect(page).toHaveURL(/\/story\/room\/demo$/);
  await expect(page.getByRole('heading', { name: 'Room story' })).toBeVisible();

  await page.goto('/negotiations');
  const negotiation = page.locator('main a[href^="/negotiations/neg_"]').first();
  await expect(negotiation).toBeVisible({ timeout: 30_000 });
  await negotiation.click();
  await page.getByRole('link', { name: 'Story & replay' }).click();
  await expect(page.getByRole('heading', { name: 'Negotiation story' })).toBeVisible();

  await page.goto('/scheduling');
  const form = page.getByRole('form', { name: 'Propose a meeting' });
  await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
  await form.getByLabel('Title').fill('Replay check');
  await form.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page).toHaveURL(/\/scheduling\/urn/);
  await page.getByRole('link', { name: 'Story & replay' }).click();
  await expect(page.getByRole('heading', { name: 'Scheduling story' })).toBeVisible();
});

test('a room that does not exist says so at once, asked once, with the way back', async () => {
  const { page } = demo;
  // The page also asks for the room's history once before it knows there is no room.
  expectConsoleErrors(/status of 404 .*\/api\/rooms\/nope[/?)]/);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/rooms/nope') asked.push(request.url());
  });
  await page.goto('/rooms/nope');
  await expect(page.getByText('No such room')).toBeVisible();
  await expect(page.getByText('There is no room “nope”.', { exact: false })).toBeVisible();
  // Neither the live room around it nor a "Try again": a 404 is not retried.
  await expect(page.getByTestId('connection-status')).toHaveCount(0);
  expect(asked).toHaveLength(1);
  await page.getByRole('link', { name: 'All rooms' }).click();
  await expect(page).toHaveURL(/\/rooms$/);
});
