// Serves the built SPA from dist/web: files as they are, and index.html for client-side routes.
// Each compressible file is sent as its brotli or gzip copy made at build (scripts/vite-precompress.ts)
// when the browser accepts it, with an ETag per copy and 304s to revalidations (static-files.ts);
// hashed assets are cached for good, the rest revalidated (decisions-server.md §49, §89). The shell
// itself is sent with a fresh CSP nonce in its policy and in a meta tag, which the console hands to
// the libraries that write a <style> element (decisions-server.md §66); no other answer has one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';
import { pageNonce, pagePolicy } from './security-headers';
import { staticFiles } from './static-files';

const SERVER_PREFIXES = ['/api/', '/mqtt', '/events', '/health', '/seed', '/oap/', '/agents', '/openapi.json'];

// Names under /assets/ carry a content hash: a new build never reuses one.
const IMMUTABLE = 'public, max-age=31536000, immutable';

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
  const shell = shellWithNonce(readFileSync(join(staticDir, 'index.html'), 'utf8'));
  // Differs per response (its nonce): revalidated every time, never answered 304 (§66).
  const serveShell = (c: Context) => {
    const nonce = pageNonce();
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Security-Policy', pagePolicy(nonce));
    return c.html(shell(nonce));
  };
  app.use('/assets/*', staticFiles(staticDir, IMMUTABLE));
  // The shell by its own names too, not the file on disk (which has no nonce).
  app.get('*', (c, next) => (c.req.path === '/' || c.req.path === '/index.html' ? serveShell(c) : next()));
  app.use('*', staticFiles(staticDir, 'no-cache'));
  app.get('*', serveShell);
  return app;
}

/**
 * The shell's text with a `<meta name="csp-nonce">` opening its head (or, in a shell that leaves
 * `<head>` implied, right after the doctype), for each response's nonce.
 */
export function shellWithNonce(html: string): (nonce: string) => string {
  const head = /<head[^>]*>|<!doctype[^>]*>/i.exec(html);
  const at = head ? head.index + head[0].length : 0;
  const before = html.slice(0, at);
  const after = html.slice(at);
  // Hono's nonce is base64; anything else is left out rather than written into markup.
  return (nonce) =>
    `${before}<meta name="csp-nonce" content="${/^[A-Za-z0-9+/=]*$/.test(nonce) ? nonce : ''}" />${after}`;
}
