// Child-process tests run the server and the CLI as production does: the compiled bundle under
// plain node (decisions-server.md §49), built beforehand by the integration project's global setup
// (build-server.ts) or by `npm test`'s build step for the journeys. Starting a bundle costs a
// fraction of transpiling the sources at every start.
import { spawnSync } from 'node:child_process';

export const SERVER_MAIN: readonly string[] = ['--enable-source-maps', 'dist/server/main.js'];
export const SERVER_CLI: readonly string[] = ['--enable-source-maps', 'dist/server/cli.js'];

/** Builds the server bundle if its sources changed since the last build, exactly as `npm start` does. */
export function ensureServerBuilt(): void {
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { ensureBuilt } from './scripts/build/ensure-built.mjs'; ensureBuilt(['server']);",
    ],
    { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`building the server failed (exit ${result.status ?? result.signal})`);
}
