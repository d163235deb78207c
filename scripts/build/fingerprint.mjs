// What each build is made from, and whether dist/ still matches it (decisions-server.md §49).
// A fingerprint is the path, size and modification time of every input file: a stat per file,
// a few milliseconds for the whole tree, so `npm start` can skip a build that would change nothing.
// Whole folders are walked, not lists of files, so moving code between them needs no change here.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Tests are never part of a bundle; editing one should not cost a build.
const NOT_AN_INPUT = /\.test\.[cm]?[jt]sx?$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'data', 'coverage', 'test-results']);

/** The builds `npm start` may need: their inputs (folders walked, files) and the file that proves an output. */
export const TARGETS = {
  web: {
    folders: ['web', 'shared', 'public'],
    files: ['vite.config.ts', 'scripts/vite-precompress.ts', 'tsconfig.json', 'package-lock.json'],
    output: 'dist/web/index.html',
  },
  server: {
    // agents/ is the top-level agent package when present; a missing folder is simply empty.
    folders: ['server', 'shared', 'agents'],
    files: ['scripts/build/server-bundle.mjs', 'tsconfig.json', 'package-lock.json'],
    output: 'dist/server/main.js',
  },
};

function* walk(root, folder) {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(root, path);
    else if (entry.isFile() && !NOT_AN_INPUT.test(entry.name)) yield path;
  }
}

/** Each target's fingerprint; a file two targets share (shared/, the lockfile) is read once. */
export function fingerprints(root, targets) {
  const seen = new Map();
  const line = (path) => {
    if (!seen.has(path)) {
      const stats = statSync(join(root, path), { throwIfNoEntry: false });
      seen.set(path, stats ? `${path}\0${stats.size}\0${stats.mtimeMs}\n` : `${path}\0missing\n`);
    }
    return seen.get(path);
  };
  return Object.fromEntries(
    targets.map((target) => {
      const { folders, files } = TARGETS[target];
      const paths = [...folders.flatMap((folder) => [...walk(root, folder)]), ...files].sort();
      const hash = createHash('sha256');
      for (const path of paths) hash.update(line(path));
      return [target, hash.digest('hex')];
    }),
  );
}

const stampFile = (root, target) => join(root, 'dist', `.${target}-build-stamp`);

/** True when the target's output exists and was built from inputs with this fingerprint. */
export function isCurrent(root, target, print) {
  if (!existsSync(join(root, TARGETS[target].output))) return false;
  const stamp = stampFile(root, target);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === print;
}

export function recordBuilt(root, target, print) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(stampFile(root, target), print);
}

/** The targets whose output is missing or older than their inputs. */
export function staleTargets(root, targets = Object.keys(TARGETS)) {
  const prints = fingerprints(root, targets);
  return targets.filter((target) => !isCurrent(root, target, prints[target]));
}
