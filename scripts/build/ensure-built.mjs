// Builds what is stale in a child process, so that the build tools (vite, esbuild) are never
// loaded into the process that then serves (decisions-server.md §49).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { staleTargets } from './fingerprint.mjs';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Builds `targets` that are stale; build output goes to stderr so a command's stdout stays its own. */
export function ensureBuilt(targets) {
  const stale = staleTargets(projectRoot, targets);
  if (stale.length === 0) return;
  console.error(`switchboard: building ${stale.join(' and ')} (sources changed since the last build)…`);
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../build.mjs', import.meta.url)), ...stale, '--logLevel', 'warn'],
    {
      cwd: projectRoot,
      stdio: ['ignore', 2, 2],
    },
  );
  if (result.status !== 0) {
    console.error(
      `switchboard: the build failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}).`,
    );
    process.exit(1);
  }
}
