// Bundles the server's entry points into dist/server/ as ESM for plain `node` (decisions-server.md
// §49). npm packages are bundled in too: resolving and loading some hundreds of package files one
// by one was about half of a start. Left outside: native modules (better-sqlite3), what loads only
// with its option (pg with DATABASE_URL) and optional native helpers (ws's). The banner gives the
// bundled CommonJS packages the `require` an ES module lacks. The project's path aliases are
// resolved from tsconfig.json's `paths`, so a new top-level folder with an alias needs no change here.
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
    // A CommonJS package the server loads with import() stays outside too (undici): esbuild's chunk
    // for it exports only `default`, where Node's own loader gives its named exports.
    external: ['better-sqlite3', 'pg', 'pg-native', 'undici', 'esbuild', 'vite', 'bufferutil', 'utf-8-validate'],
    banner: {
      js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
    },
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
