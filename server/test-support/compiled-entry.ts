// Child-process tests run the server and the CLI as production does: the compiled bundle under
// plain node (decisions-server.md §49), built beforehand by the integration project's global setup
// (build-server.ts) or by `npm test`'s build step for the journeys. Starting a bundle costs a
// fraction of transpiling the sources at every start.
import { spawnSync } from 'node:child_process';

export const SERVER_MAIN: readonly string[] = ['--enable-source-maps', 'dist/server/main.js'];
export const SERVER_CLI: readonly string[] = ['--enable-source-maps', 'dist/server/cli.js'];

export type BuildTarget = 'web' | 'server';

export interface BuildOptions {
  /** 'inherit': the build's lines go to this process's output; 'capture': they are returned. */
  readonly output: 'inherit' | 'capture';
  readonly timeoutMs?: number;
}

/**
 * Builds those of `targets` whose sources changed since their last build, exactly as `npm start`
 * does (scripts/build/ensure-built.mjs, in a child process of its own); returns how it ended and,
 * when captured, what it printed.
 */
export function buildLikeStart(
  targets: readonly BuildTarget[],
  options: BuildOptions,
): { status: number | null; signal: NodeJS.Signals | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ensureBuilt } from './scripts/build/ensure-built.mjs'; ensureBuilt(${JSON.stringify(targets)});`,
    ],
    {
      encoding: 'utf8',
      ...(options.output === 'inherit' ? { stdio: ['ignore', 'inherit', 'inherit'] as const } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    },
  );
  return { status: result.status, signal: result.signal, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** Builds the server bundle if its sources changed since the last build, exactly as `npm start` does. */
export function ensureServerBuilt(): void {
  const result = buildLikeStart(['server'], { output: 'inherit' });
  if (result.status !== 0) throw new Error(`building the server failed (exit ${result.status ?? result.signal})`);
}
