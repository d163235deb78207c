// Every journey fails on a browser console error or an uncaught page error, in any context it
// opens (the default one, or one made with `browser.newContext` in a hook). A journey that expects
// one (a 409 from a lost race, a 404 it asked for) names it: `expectConsoleErrors(/…/)` in the
// test, or `test.use({ allowConsoleErrors })` for a whole file.
import { test as base, type BrowserContext } from '@playwright/test';
import { pinBrowserClock } from './test-clock';

export { expect } from '@playwright/test';
export type { Browser, BrowserContext, Page, Locator, ConsoleMessage, Download, Response } from '@playwright/test';

interface ConsoleLog {
  readonly lines: string[];
  /** How many lines the last finished test looked at: errors from hooks count for the next test. */
  checked: number;
}

/** What the running test said it causes; cleared when the test ends. */
const expectedHere: RegExp[] = [];

/** This test causes console errors matching these (a refusal it provokes, a server it kills). */
export function expectConsoleErrors(...patterns: RegExp[]): void {
  expectedHere.push(...patterns);
}

function watch(context: BrowserContext, log: ConsoleLog): void {
  context.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const at = msg.location().url;
    log.lines.push(at ? `${msg.text()} (at ${at})` : msg.text());
  });
  context.on('weberror', (error) => log.lines.push(`uncaught: ${error.error().message}`));
}

export const test = base.extend<
  { allowConsoleErrors: readonly RegExp[]; failOnConsoleErrors: void },
  { consoleLog: ConsoleLog }
>({
  consoleLog: [
    async ({ browser }, use) => {
      const log: ConsoleLog = { lines: [], checked: 0 };
      for (const context of browser.contexts()) watch(context, log);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        watch(context, log);
        await pinBrowserClock(context);
        return context;
      };
      await use(log);
    },
    { scope: 'worker', auto: true },
  ],
  allowConsoleErrors: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ consoleLog, allowConsoleErrors }, use, testInfo) => {
      await use();
      const allowed = [...allowConsoleErrors, ...expectedHere.splice(0)];
      const lines = consoleLog.lines.slice(consoleLog.checked);
      consoleLog.checked = consoleLog.lines.length;
      // A journey that already failed says why itself; this would only hide it.
      if (testInfo.status !== testInfo.expectedStatus) return;
      const unexpected = lines.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      if (unexpected.length > 0)
        throw new Error(`The browser logged ${unexpected.length} console error(s):\n${unexpected.join('\n')}`);
    },
    { auto: true },
  ],
});
