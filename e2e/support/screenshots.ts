// Screenshots for docs/screenshots/, in the light and the dark theme. Taken only when
// SWITCHBOARD_SCREENSHOTS=1, so an ordinary test run leaves the work tree untouched.
import type { Page } from '@playwright/test';

/** `fullPage: false` for dialogs: their overlay covers the viewport, not the whole page. */
export async function snap(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  if (!process.env.SWITCHBOARD_SCREENSHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    // The theme preference is "system" by default, so the emulated scheme picks the theme.
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction(
      (dark) => document.documentElement.classList.contains('dark') === dark,
      scheme === 'dark',
    );
    await page.screenshot({
      path: `docs/screenshots/${name}-${scheme}.png`,
      fullPage,
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * `snap` at 1440 and 390 px as `<name>-1440` and `<name>-390`, then back to the page's own size.
 * Nothing is resized when screenshots are off.
 */
export async function snapAtBothWidths(page: Page, name: string): Promise<void> {
  if (!process.env.SWITCHBOARD_SCREENSHOTS) return;
  const own = page.viewportSize();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snap(page, `${name}-${width}`);
  }
  if (own) await page.setViewportSize(own);
}
