// The console's screens as the journeys that walk all of them visit them (the accessibility and
// phone-width journeys), and a way to move between them inside the running console.
import { expect, type Page } from '@playwright/test';

/** The main navigation's tabs, in their order. */
export const NAV_SCREENS = [
  '/',
  '/rooms',
  '/fleet',
  '/directory',
  '/threads',
  '/negotiations',
  '/transparency-log',
  '/scheduling',
  '/tasks',
  '/activity',
  '/settings/services',
  '/demo',
] as const;

/** Screens reached from a list or a menu rather than a tab. */
export const OTHER_SCREENS = [
  '/rooms/demo',
  '/rooms/demo/audit',
  '/settings/account',
  '/settings/inbox',
  '/settings/operators',
] as const;

export const ALL_SCREENS: readonly string[] = [...NAV_SCREENS, ...OTHER_SCREENS];

/**
 * Opens `path` inside the running console, as its links do (the router, no page load): journeys
 * that walk every screen, several times over, spend most of their time loading pages otherwise.
 * The screen that was showing is marked first, so the wait ends on the new screen's heading.
 */
export async function openScreen(page: Page, path: string): Promise<void> {
  const moved = await page.evaluate((to) => {
    const screen = document.querySelector('main > *');
    if (!screen || location.pathname === to) return false;
    screen.setAttribute('data-left', '');
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return true;
  }, path);
  if (moved) {
    try {
      await page.locator('main > :not([data-left]) h1').first().waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch {
      // The router kept the marked element for the new screen (or is still loading it): the
      // screen is then read after a page load, as a reload would show it.
    }
  }
  await page.goto(path);
  await expect(page.locator('main h1').first(), path).toBeVisible();
}
