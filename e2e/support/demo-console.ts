// A demo server of a journey's own (DEMO=1) with its first facilitator enrolled in one browser
// context: what every demo journey does in its beforeAll, written once.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { enrollNewKey } from './operators';
import { startServer, type RunningServer } from './server';

export interface DemoConsole {
  readonly server: RunningServer;
  readonly context: BrowserContext;
  /** Signed in as the first facilitator, on the console's home. */
  readonly page: Page;
  /** Closes the context, then stops the server (safe after a failed start). */
  close(): Promise<void>;
}

export interface DemoConsoleOptions {
  /** DEMO_PACE: fast unless a journey needs the demo's steps spread out. */
  readonly pace?: 'fast' | 'calm';
  /** DEMO_SEED: the demo's keys derive from it. */
  readonly seed?: number;
  /** For the browser context; baseURL is always the demo server's. */
  readonly context?: BrowserContextOptions;
}

export async function openDemoConsole(browser: Browser, options: DemoConsoleOptions = {}): Promise<DemoConsole> {
  const server = await startServer(
    { DEMO: '1', DEMO_PACE: options.pace ?? 'fast', DEMO_SEED: String(options.seed ?? 7) },
    { enrollLinkWaitMs: 10_000 },
  );
  let context: BrowserContext | undefined;
  try {
    if (!server.enrollUrl) throw new Error(`The demo server printed no enrollment link:\n${server.log()}`);
    context = await browser.newContext({ ...options.context, baseURL: server.url });
    const page = await context.newPage();
    await enrollFirstFacilitator(page, server.enrollUrl);
    const opened = context;
    return {
      server,
      context: opened,
      page,
      close: async () => {
        await opened.close();
        await server.stop();
      },
    };
  } catch (error) {
    // A failed beforeAll runs no afterAll with a handle to close: leave no server behind.
    await context?.close();
    await server.stop();
    throw error;
  }
}

/** Follows a first-start enrollment link: the key is made with its backup and enrolled as facilitator. */
export async function enrollFirstFacilitator(page: Page, enrollUrl: string): Promise<void> {
  await enrollNewKey(page, enrollUrl, 'Facilitator');
}
