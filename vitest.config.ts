import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = {
  '@shared': here('./shared'),
  '@web': here('./web'),
  '@server': here('./server'),
  '@agents': here('./agents'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Tests are deterministic: UTC everywhere.
    env: { TZ: 'UTC' },
    // Vitest's default is one worker fewer than the cores, so one file at a time on the 2-core CI
    // machine. Two workers there: unit 133 → 80 s, integration 294 → 194 s (the integration files
    // spend much of their time waiting on brokers, databases and child processes).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts'],
      exclude: ['shared/**/*.test.ts', 'shared/**/test-support/**', 'shared/**/*.d.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90 },
    },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          // Pure functions and components over jsdom-free code: files share a worker's module
          // cache instead of importing everything again per file (most of the unit run's time).
          isolate: false,
          include: ['shared/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          // A run pinned to another instant moves Date there (scripts/pinned-clocks.sh).
          setupFiles: ['scripts/pinned-clock-setup.ts'],
          env: { TZ: 'UTC' },
          // A budget, not a wait: the property suites take seconds each, many more on a machine
          // whose cores are busy elsewhere, and a stuck test still ends here.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          // As in the unit project, files share their worker's module cache: importing the server's
          // modules again for every file was a third of the project's time. A file that mocks a
          // module imports a fresh copy after vi.resetModules (server/auth/agent-password.test.ts).
          isolate: false,
          // Builds the server bundle the child-process tests run (server/test-support/compiled-entry.ts).
          globalSetup: ['server/test-support/build-server.ts'],
          // Servers in the test process log nothing unless LOG_LEVEL asks (logging/logger.ts).
          // A run pinned to another instant moves Date there (scripts/pinned-clocks.sh).
          setupFiles: ['server/test-support/quiet-logs.ts', 'scripts/pinned-clock-setup.ts'],
          include: ['server/**/*.test.ts', 'agents/**/*.test.ts', 'examples/**/*.test.ts'],
          env: { TZ: 'UTC' },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
