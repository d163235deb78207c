// Reads the published test vectors from ../shared/vectors beside the checkout (read-only
// material that CI provides too). A missing folder is a loud failure, never a skipped test.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../shared/vectors/', import.meta.url));

export function vectorPath(relative: string): string {
  const path = root + relative;
  if (!existsSync(path))
    throw new Error(`Published vector missing: ${path} (expected ../shared/vectors beside the checkout)`);
  return path;
}

export const readVectorBytes = (relative: string): Uint8Array => new Uint8Array(readFileSync(vectorPath(relative)));
export const readVectorText = (relative: string): string => readFileSync(vectorPath(relative), 'utf8');
export const readVectorJson = <T = unknown>(relative: string): T => JSON.parse(readVectorText(relative)) as T;
export const listVectors = (relative: string): string[] => readdirSync(vectorPath(relative)).sort();
