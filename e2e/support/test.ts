// Every journey fails on a browser console error or an uncaught page error, in any context it
// opens (the default one, or one made with `browser.newContext` in a hook). A journey that expects
// one (a 409 from a lost race, a 404 it asked for) names it: `expectConsoleErrors(/…/)` in the
// test, or `test.use({ allowConsoleErrors })` for a whole file.
import { test as base, type BrowserContext } from '@playwright/test';
import { pinBrowserClock } from './test-clock';

export { expect } from '@playwright/test';
export type { Browser, BrowserContext, Page, Locator, ConsoleMessage, Download, Response } from '@playwright/test';

/** A console line, with what was expected of the context that logged it. */
interface ConsoleLine {
  readonly text: string;
  readonly allowed: readonly RegExp[];
}

interface ConsoleLog {
  readonly lines: ConsoleLine[];
  /** How many lines the last finished test looked at: errors from hooks count for the next test. */
  checked: number;
}

/** What the running test said it causes; cleared when the test ends. */
const expectedHere: RegExp[] = [];

/**
 * What was expected while each open context was open: an error a test provoked may be logged
 * after that test ended (a late answer of a page it left), and it stays expected of the context
 * that asked, not of whichever test runs next.
 */
const openContexts = new Map<BrowserContext, RegExp[]>();

/** This test causes console errors matching these (a refusal it provokes, a server it kills). */
export function expectConsoleErrors(...patterns: RegExp[]): void {
  expectedHere.push(...patterns);
  allowInOpenContexts(patterns);
}

function allowInOpenContexts(patterns: readonly RegExp[]): void {
  for (const allowed of openContexts.values())
    for (const pattern of patterns) if (!allowed.includes(pattern)) allowed.push(pattern);
}

function watch(context: BrowserContext, log: ConsoleLog): void {
  const allowed: RegExp[] = [];
  openContexts.set(context, allowed);
  context.on('close', () => openContexts.delete(context));
  context.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const at = msg.location().url;
    log.lines.push({ text: at ? `${msg.text()} (at ${at})` : msg.text(), allowed });
  });
  context.on('weberror', (error) => log.lines.push({ text: `uncaught: ${error.error().message}`, allowed }));
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
      allowInOpenContexts(allowConsoleErrors);
      await use();
      const allowed = [...allowConsoleErrors, ...expectedHere.splice(0)];
      const lines = consoleLog.lines.slice(consoleLog.checked);
      consoleLog.checked = consoleLog.lines.length;
      // A journey that already failed says why itself; this would only hide it.
      if (testInfo.status !== testInfo.expectedStatus) return;
      const unexpected = lines
        .filter((line) => ![...allowed, ...line.allowed].some((pattern) => pattern.test(line.text)))
        .map((line) => line.text);
      if (unexpected.length > 0)
        throw new Error(`The browser logged ${unexpected.length} console error(s):\n${unexpected.join('\n')}`);
    },
    { auto: true },
  ],
});
