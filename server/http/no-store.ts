// Answers that carry what a credential unlocked are never kept by a cache (decisions-server.md
// §82): a shared proxy, or the browser's disk cache on a shared machine, would otherwise hold an
// operator's rooms, inbox or a party's confidential negotiation after the session is gone. Every
// JSON answer to a request that carries a credential (the session cookie, an RFC 9421 signature,
// a bearer token) gets `Cache-Control: no-store` unless its route set a Cache-Control of its own.
import { createMiddleware } from 'hono/factory';
import { hasSessionCookie } from './session';

const carriesCredential = (header: (name: string) => string | undefined): boolean =>
  hasSessionCookie(header('cookie')) || header('signature') !== undefined || header('authorization') !== undefined;

export const noStoreWhenAuthenticated = () =>
  createMiddleware(async (c, next) => {
    await next();
    if (!carriesCredential((name) => c.req.header(name))) return;
    if (!c.res.headers.get('content-type')?.startsWith('application/json')) return;
    if (!c.res.headers.has('cache-control')) c.res.headers.set('Cache-Control', 'no-store');
  });
