// Serves the built SPA from dist/web: files as they are, and index.html for client-side routes.
// Each compressible file is sent as its brotli or gzip copy made at build (scripts/vite-precompress.ts)
// when the browser accepts it; hashed assets are cached for good, the rest revalidated
// (decisions-server.md §49).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';

const SERVER_PREFIXES = ['/api/', '/mqtt', '/events', '/health', '/seed', '/oap/', '/agents', '/openapi.json'];

// Names under /assets/ carry a content hash: a new build never reuses one.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Headers for a file found: serveStatic adds Vary only when it picks a copy, caches need it always. */
function cachedAs(cacheControl: string) {
  return (_path: string, c: Context) => {
    c.header('Cache-Control', cacheControl);
    c.header('Vary', 'Accept-Encoding');
  };
}

export function spaRoutes(staticDir: string): Hono {
  const app = new Hono();
  // Unknown server paths get a coded 404, never the SPA shell.
  app.all('*', async (c, next) => {
    if (SERVER_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) {
      throw new CodedError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`);
    }
    return next();
  });
  if (!existsSync(join(staticDir, 'index.html'))) {
    app.get('*', (c) =>
      c.text('The console has not been built. Run `npm start` (it builds first) or `npm run build`.', 503),
    );
    return app;
  }
  app.use('/assets/*', serveStatic({ root: staticDir, precompressed: true, onFound: cachedAs(IMMUTABLE) }));
  app.use('*', serveStatic({ root: staticDir, precompressed: true, onFound: cachedAs('no-cache') }));
  app.get(
    '*',
    serveStatic({ root: staticDir, path: 'index.html', precompressed: true, onFound: cachedAs('no-cache') }),
  );
  return app;
}
