// `npm run build`: the console (vite, with brotli and gzip copies) and the server bundle
// (esbuild), each stamped with the fingerprint of its inputs so `npm start` knows they are current.
// `node scripts/build.mjs [web] [server] [--logLevel warn]` builds only those named.
import { fileURLToPath } from 'node:url';
import { bundleServer } from './build/server-bundle.mjs';
import { fingerprints, recordBuilt, TARGETS } from './build/fingerprint.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const levelAt = args.indexOf('--logLevel');
const logLevel = levelAt >= 0 ? args[levelAt + 1] : 'info';
const named = args.filter((arg) => arg in TARGETS);
const targets = named.length > 0 ? named : Object.keys(TARGETS);

const builders = {
  async web() {
    const { build } = await import('vite');
    await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel });
  },
  server: () => bundleServer(root),
};

for (const target of targets) {
  // Taken before building: an input edited during the build makes the next start build again.
  const print = fingerprints(root, [target])[target];
  await builders[target]();
  recordBuilt(root, target, print);
}
