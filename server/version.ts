import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest package.json above this module: the same file from server/ and from the bundle in dist/server/. */
function packageJsonPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('switchboard: no package.json above the server code.');
    dir = parent;
  }
  return join(dir, 'package.json');
}

/** The package version, reported by /health so operators can tell what is deployed. */
export const VERSION: string = (JSON.parse(readFileSync(packageJsonPath(), 'utf8')) as { version: string }).version;
