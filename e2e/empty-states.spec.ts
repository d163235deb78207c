// First run: on a fresh server with the demo off, every screen says what to do
// next instead of showing nothing, and a link to something that does not exist says so and leads
// back, rather than offering to "try again".
import { expect, test, type BrowserContext, type Page, expectConsoleErrors } from './support/test';
import { enrollNewKey } from './support/operators';
import { startServer, type RunningServer } from './support/server';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  server = await startServer({ DEMO: '0' }, { enrollLinkWaitMs: 10_000 });
  if (!server.enrollUrl) throw new Error(`No enrollment link:\n${server.log()}`);
  context = await browser.newContext({ baseURL: server.url });
  page = await context.newPage();
  await enrollNewKey(page, server.enrollUrl);
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

test('every list screen of a fresh install says what to do next', async () => {
  const expectations: [string, RegExp][] = [
    ['/rooms', /No rooms yet.*Create a room/s],
    ['/directory', /No agents registered yet/],
    ['/threads', /No threads yet.*Send a request from the agent directory/s],
    ['/negotiations', /No negotiations yet/],
    ['/transparency-log', /The log is empty: an entry is appended when a negotiation ends in an accepted agreement/],
    ['/scheduling', /No meeting proposed yet\. Propose one above/],
    ['/tasks', /No tasks yet\. Assign one above/],
  ];
  for (const [path, text] of expectations) {
    await page.goto(path);
    await expect(page.locator('#main, main').first(), path).toContainText(text);
  }
});

test('a link to a thread or negotiation that does not exist says so and leads back', async () => {
  expectConsoleErrors(/status of 404 .*\/nope\)$/);
  await page.goto('/threads/nope');
  await expect(page.getByText('No such thread')).toBeVisible();
  await page.getByRole('link', { name: 'All threads' }).click();
  await expect(page).toHaveURL(/\/threads$/);
  await page.goto('/negotiations/nope');
  await expect(page.getByText('No such negotiation')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await page.getByRole('link', { name: 'All negotiations' }).click();
  await expect(page).toHaveURL(/\/negotiations$/);
});

test('in a narrow window the navigation is a row of tabs that keeps the current screen in sight', async () => {
  await page.setViewportSize({ width: 480, height: 800 });
  await page.goto('/settings/services');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const current = nav.getByRole('link', { name: 'Services' });
  await expect(current).toHaveAttribute('aria-current', 'page');
  // The row scrolls sideways rather than wrapping, and has been scrolled to the current tab.
  expect(await nav.evaluate((row) => row.scrollWidth > row.clientWidth)).toBe(true);
  await expect(async () => {
    const [row, tab] = [await nav.boundingBox(), await current.boundingBox()];
    expect(tab!.x).toBeGreaterThanOrEqual(row!.x);
    expect(tab!.x + tab!.width).toBeLessThanOrEqual(row!.x + row!.width);
  }).toPass();
  // Moving on by keyboard (g r: Rooms, far to the left) brings that tab back into sight.
  await page.keyboard.press('g');
  await page.keyboard.press('r');
  const rooms = nav.getByRole('link', { name: 'Rooms' });
  await expect(rooms).toHaveAttribute('aria-current', 'page');
  await expect(async () => {
    const [row, tab] = [await nav.boundingBox(), await rooms.boundingBox()];
    expect(tab!.x).toBeGreaterThanOrEqual(row!.x);
  }).toPass();
  await page.setViewportSize({ width: 1280, height: 720 });
});
