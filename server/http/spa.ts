// Serves the built SPA from dist/web: files as they are, and index.html for client-side routes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';

const SERVER_PREFIXES = ['/api/', '/mqtt', '/events', '/health', '/seed', '/oap/', '/agents', '/openapi.json'];

export function spaRoutes(staticDir: string): Hono {
  const app = new Hono();
  // Unknown server paths get a coded 404, never the SPA shell.
  app.all('*', async (c, next) => {
    if (SERVER_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) {
      throw new CodedError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`);
    }
    return next();
  });
  const indexPath = join(staticDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.get('*', (c) =>
      c.text('The console has not been built. Run `npm start` (it builds first) or `npm run build`.', 503),
    );
    return app;
  }
  const indexHtml = readFileSync(indexPath, 'utf8');
  app.use('/assets/*', serveStatic({ root: staticDir, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }));
  app.use('*', serveStatic({ root: staticDir }));
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml);
  });
  return app;
}
