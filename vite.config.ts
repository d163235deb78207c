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
    rolldownOptions: { checks: { bundlerTimings: false } },
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
