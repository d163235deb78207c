// Answers that carry what a counterparty service said (the external proxy and views) are JSON
// this server serialised, and still get a sandbox CSP and nosniff: were a browser ever to render
// one as a document, it would be an opaque origin with no script, no requests and no framing,
// not the console's origin with the operator's session (decisions-server.md §40).
import { createMiddleware } from 'hono/factory';

export const SANDBOX_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

export const sandboxedAnswers = () =>
  createMiddleware(async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', SANDBOX_CSP);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });
