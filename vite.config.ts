import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The SPA lives in web/; the server serves the build from dist/web, with brotli and gzip copies.
export default defineConfig({
  root: here('./web'),
  publicDir: here('./public'),
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@shared': here('./shared'),
      '@web': here('./web'),
    },
  },
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    // The precompression in closeBundle takes seconds by design (brotli at its best quality, once
    // per build); the bundler's slow-plugin report would print that on every start that builds.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        // Left to itself the bundler made ~160 chunks, and a cold page asked for ~100 of them in
        // waves, one round trip after another. The libraries every screen runs on come as one
        // file, and the console's own modules that six or more screens share as one more; what
        // fewer screens use stays with them (docs/benchmarks.md, "UI benchmark: the room
        // timeline"). zod's configuration stays a chunk of its own that the entry imports first:
        // the shared chunk holds zod and schemas, and evaluating it unconfigured would probe for
        // `new Function`, a CSP violation (web/app/zod-config.ts).
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack)[\\/]/,
              priority: 20,
            },
            { name: 'common', minShareCount: 6, minSize: 20_000, priority: 10 },
            { name: 'zod-config', test: /web[\\/]app[\\/]zod-config\.ts$/, priority: 30 },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev:web` proxies the API and the MQTT bridge to a running server.
    proxy: {
      '/api': 'http://127.0.0.1:8787',
      '/health': 'http://127.0.0.1:8787',
      '/mqtt': { target: 'ws://127.0.0.1:8787', ws: true },
    },
  },
});
