// At phone width (390 px) no screen scrolls sideways: the header keeps to the viewport (the
// tabs fade where more of them hide), and every page's content wraps. The same screens at desktop
// width as a baseline. Screenshots of each, at 390 px (phone-*) and 1440 px (desktop-*), light and
// dark, land in docs/screenshots/ when SWITCHBOARD_SCREENSHOTS=1.
import { expect, test, type Page } from './support/test';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { snap } from './support/screenshots';
import { ALL_SCREENS, NAV_SCREENS, openScreen } from './support/screens';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;
const problems: string[] = [];

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { context: { viewport: { width: 390, height: 844 } } });
  demo.page.on('pageerror', (error) => problems.push(error.message));
  demo.page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${msg.text()} at ${msg.location().url}`);
  });
});

test.afterAll(async () => {
  await demo?.close();
});

async function widths(page: Page) {
  return page.evaluate(() => ({ document: document.documentElement.scrollWidth, viewport: innerWidth }));
}

async function expectNoSidewaysScroll(page: Page, path: string) {
  await openScreen(page, path);
  // Live screens keep rendering; the width is what it settles at.
  await expect.poll(async () => (await widths(page)).document, { message: path }).toBe((await widths(page)).viewport);
}

const shotName = (path: string) => `phone${path === '/' ? '-inbox' : path.replaceAll('/', '-')}`;

test('the navigation lists exactly the screens this journey visits, and says when tabs are hidden', async () => {
  const { page } = demo;
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Inbox' })).toBeVisible();
  const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(NAV_SCREENS);
  // On the first tab, more hide to the right and none to the left; on the last, the other way.
  await expect(page.getByTestId('tabs-more-right')).toBeVisible();
  await expect(page.getByTestId('tabs-more-left')).toHaveCount(0);
  await nav.getByRole('link', { name: 'Demo' }).click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByTestId('tabs-more-left')).toBeVisible();
  await expect(page.getByTestId('tabs-more-right')).toHaveCount(0);
  // The header is one row of brand and controls above the tabs: the account is a chip of initials.
  const account = page.getByRole('button', { name: /^Account: / });
  await expect(account).toBeVisible();
  const box = await account.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await expect(page.getByLabel('Theme')).toBeVisible();
});

test('no screen scrolls sideways at 390 px', async () => {
  const { page } = demo;
  for (const path of ALL_SCREENS) {
    await expectNoSidewaysScroll(page, path);
    await snap(page, shotName(path), { fullPage: false });
  }
  // A meeting proposed from the phone, then a thread and a negotiation the demo made.
  await page.goto('/scheduling');
  const form = page.getByRole('form', { name: 'Propose a meeting' });
  await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
  await form.getByLabel('Title').fill('Phone check');
  await form.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page).toHaveURL(/\/scheduling\/urn/);
  await expectNoSidewaysScroll(page, new URL(page.url()).pathname);
  // The heat-map shows a day at a time here (e2e/scheduling.spec.ts follows its days).
  await expect(page.getByTestId('heat-map-day')).toBeVisible({ timeout: 30_000 });
  await snap(page, 'phone-scheduling-thread', { fullPage: false });
  for (const list of ['/threads', '/negotiations']) {
    await page.goto(list);
    const first = page.locator(`main a[href^="${list}/"]`).first();
    await expect(first, list).toBeVisible({ timeout: 30_000 });
    const href = (await first.getAttribute('href'))!;
    await expectNoSidewaysScroll(page, href);
    await snap(page, shotName(list.replace(/s$/, '')), { fullPage: false });
  }
  expect(problems).toEqual([]);
});

test('the same screens at 1440 px, as a baseline', async () => {
  const { page } = demo;
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const path of ALL_SCREENS) {
    await expectNoSidewaysScroll(page, path);
    await snap(page, shotName(path).replace(/^phone/, 'desktop'), { fullPage: false });
  }
  expect(problems).toEqual([]);
});
