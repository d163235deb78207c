// Every screen, in both themes, at 1440 and 390 px, has no serious or critical accessibility
// violation by axe-core (WCAG 2.1 A and AA rules), a thread, a negotiation, its story and a
// meeting's thread among them; and the command palette finds rooms, negotiations, threads and
// meetings by name from the keyboard alone.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './support/test';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { snap } from './support/screenshots';
import { ALL_SCREENS, openScreen } from './support/screens';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { context: { viewport: { width: 1440, height: 900 } } });
});

test.afterAll(async () => {
  await demo?.close();
});

/** The first detail page a list links to (a thread, a negotiation the demo made). */
async function firstDetail(page: Page, list: string): Promise<string> {
  await page.goto(list);
  const link = page.locator(`main a[href^="${list}/"]`).first();
  await expect(link, list).toBeVisible({ timeout: 30_000 });
  return (await link.getAttribute('href'))!;
}

/** A meeting proposed from the Scheduling screen: its thread is where slots are approved. */
async function proposedMeeting(page: Page): Promise<string> {
  await page.goto('/scheduling');
  const form = page.getByRole('form', { name: 'Propose a meeting' });
  await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
  await form.getByLabel('Title').fill('Accessibility check');
  await form.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page).toHaveURL(/\/scheduling\/urn/, { timeout: 20_000 });
  return new URL(page.url()).pathname;
}

/** Serious and critical violations on the page as it is now, named by screen. */
async function seriousViolations(page: Page, label: string, rules?: readonly string[]): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  const { violations } = await (rules ? axe.withRules([...rules]) : axe.withTags(WCAG_TAGS)).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${label}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * The themes differ in colours only (the same elements, roles and names), so the dark theme is
 * checked by the rules that read colours; the light theme by every WCAG 2.1 A and AA rule.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

async function showTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark');
}

let details: string[] = [];

for (const width of [1440, 390])
  test(`no screen has a serious or critical violation at ${width} px, in the light and the dark theme`, async () => {
    // A backstop that grows with the screens walked (each waits on its own conditions): two axe
    // runs a screen, which take seconds each on a busy 2-core machine.
    test.setTimeout((ALL_SCREENS.length + 4) * 15_000);
    const { page } = demo;
    if (details.length === 0) {
      const negotiation = await firstDetail(page, '/negotiations');
      details = [
        await firstDetail(page, '/threads'),
        negotiation,
        // The negotiation told as a story, and a meeting's thread with its slots.
        negotiation.replace(/^\/negotiations\//, '/story/negotiation/'),
        await proposedMeeting(page),
      ];
    }
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    // Colours settle at once (the console honours reduced motion): axe reads them, never a
    // button halfway through a colour transition.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    // "System": the emulated colour scheme picks the theme, so each screen is shown in both
    // without leaving it.
    await page.getByLabel('Theme').selectOption('system');
    const found: string[] = [];
    for (const path of [...ALL_SCREENS, ...details]) {
      await showTheme(page, 'light');
      await openScreen(page, path);
      found.push(...(await seriousViolations(page, `${path} (light)`)));
      await showTheme(page, 'dark');
      found.push(...(await seriousViolations(page, `${path} (dark)`, COLOUR_RULES)));
    }
    expect(found).toEqual([]);
  });

test('Ctrl K finds a room and a negotiation by name and goes there, by keyboard alone', async () => {
  const { page } = demo;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByLabel('Theme').selectOption('system');
  await expect(page.locator('main h1').first()).toBeVisible();
  const palette = page.getByRole('dialog', { name: /Find a screen, room/ });
  const field = palette.getByRole('combobox');

  await page.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  await expect(field).toBeFocused();
  await field.fill('demo room');
  await expect(palette.getByRole('option').first()).toContainText(/demo/i);
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(/\/rooms\/demo$/);

  // A negotiation by a party's name and its category: the demo's parties are named, not DIDs.
  await page.keyboard.press('Control+k');
  await field.fill('weather');
  const negotiation = palette
    .getByRole('option')
    .filter({ hasText: /weather/i })
    .first();
  await expect(negotiation).toBeVisible({ timeout: 20_000 });
  await expect(palette).not.toContainText('did:key:');
  await snap(page, 'command-palette', { fullPage: false });
  await negotiation.click();
  await expect(page).toHaveURL(/\/negotiations\/[^/]+$/);

  // Escape closes it and focus comes back to the page; the header button opens it too.
  await page.getByRole('button', { name: /^Find/ }).click();
  await expect(field).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await page.keyboard.press('Control+k');
  await field.fill('no such thing anywhere');
  await expect(palette).toContainText('Nothing by that name.');
  await page.keyboard.press('Escape');
});
