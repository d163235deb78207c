// CSRF defence for every state-changing request under /api/: a browser always sends Origin on
// POST, PUT, PATCH and DELETE, so Origin must name this server. A request without Origin is
// let through only when it carries no session cookie: a script or curl has no ambient authority
// to abuse. Fetch Metadata comes first: a browser that says Sec-Fetch-Site: cross-site is refused
// whatever Origin says (a page cannot forge that header). SameSite=Strict on the cookie is the
// last wall. Mounted on every path whose routes read the session cookie (app.ts).
import { createMiddleware } from 'hono/factory';
import { CodedError } from '@shared/errors';
import { requestOrigin } from './request-origin';
import { hasSessionCookie } from './session';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function csrfProtection() {
  return createMiddleware(async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    if (c.req.header('sec-fetch-site') === 'cross-site') {
      throw new CodedError('CSRF_REJECTED', 'Cross-site request refused (Sec-Fetch-Site: cross-site).');
    }
    const origin = c.req.header('origin');
    if (origin === undefined) {
      if (hasSessionCookie(c.req.header('cookie'))) {
        throw new CodedError('CSRF_REJECTED', 'A request carrying a session cookie must send an Origin header.');
      }
      return next();
    }
    // "null" (sandboxed frames, some redirects) never matches.
    if (origin !== requestOrigin(c)) {
      throw new CodedError(
        'CSRF_REJECTED',
        `Cross-origin request refused: Origin ${origin.slice(0, 200)} is not this server.`,
      );
    }
    return next();
  });
}
