// Bundles the server's entry points into dist/server/ as ESM for plain `node` (decisions-server.md
// §47). Packages stay external (node_modules is there at run time, and native modules such as
// better-sqlite3 cannot be bundled); the project's own path aliases are resolved from
// tsconfig.json's `paths` by esbuild, so a new top-level folder with an alias needs no change here.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The files `node` runs: the server and the operator CLI. */
export const SERVER_ENTRIES = { main: 'server/main.ts', cli: 'server/cli.ts' };

export async function bundleServer(root) {
  // Loaded here, in the build process, never in the serving one.
  const { build } = await import('esbuild');
  const outdir = join(root, 'dist/server');
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    tsconfig: 'tsconfig.json',
    // Shared chunks between the entries, and modules imported with import() (the demo agents)
    // stay out of memory until they are loaded.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
  });
}
