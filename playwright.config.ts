import { defineConfig } from '@playwright/test';
import { useSlotServer } from './e2e/support/server-slot';
import { pinProcessClock } from './e2e/support/test-clock';

// Debian's Chromium, never a downloaded browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Each worker has a server of its own (e2e/support/global-setup.ts); this points it there.
useSlotServer();
// A run pinned to another instant (scripts/pinned-clocks.sh) moves this process's Date there too.
pinProcessClock();

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  // One retry: on the 2-core CI machine a journey's first page can wait on a busy CPU. A journey
  // that passes only on its retry is listed as "flaky" in the output, to be fixed, not ignored.
  retries: 1,
  reporter: [['list']],
  // A journey's budget is a backstop, not a wait: every step waits on its own condition (an
  // assertion's 10 s below, or a longer one a step names), so a journey on a loaded machine that
  // is still making progress is not cut off at a fixed mark, and a broken step still fails at its
  // own condition's limit.
  timeout: 120_000,
  // Assertions wait up to 10 s (Playwright's default is 5 s): a busy machine, never a slow feature.
  expect: { timeout: 10_000 },
  use: {
    // Set by global-setup, which starts a real server per worker on an ephemeral port (useSlotServer above).
    baseURL: process.env.SWITCHBOARD_URL,
    // A trace is recorded on a journey's retry only: recording one for every journey and keeping
    // it only on failure cost about a quarter of the journeys' CPU (decisions-server.md §93).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
