// Operator sessions: an opaque 32-byte token in the `sb_session` cookie (HttpOnly, SameSite=
// Strict); the store holds its SHA-256 and the operator's DID. Routes ask for a session, and
// for a role, with `requireSession`; the MQTT WebSocket upgrade uses `sessionFromCookieHeader`.
import { createMiddleware } from 'hono/factory';
import { parse } from 'hono/utils/cookie';
import { CodedError } from '@shared/errors';
import { TOKEN_PATTERN, tokenHash } from '../auth/tokens';
import type { Clock } from '../clock';
import type { OperatorRole, Session, Store } from '../store/store';

export const SESSION_COOKIE = 'sb_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface SessionVariables {
  session: Session;
}

export interface SessionDeps {
  readonly store: Store;
  readonly clock: Clock;
}

const RANK: Readonly<Record<OperatorRole, number>> = { observer: 1, facilitator: 2 };

/** True when `role` may do what `needed` may (facilitator > observer). */
export const hasRole = (role: OperatorRole, needed: OperatorRole): boolean => RANK[role] >= RANK[needed];

/** Whether a Cookie header carries a session cookie at all, well-formed or not. */
export const hasSessionCookie = (cookieHeader: string | null | undefined): boolean =>
  !!cookieHeader && parse(cookieHeader, SESSION_COOKIE)[SESSION_COOKIE] !== undefined;

/** The session token in a Cookie header, if it has the shape of one. */
export function sessionTokenFromCookieHeader(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const token = parse(cookieHeader, SESSION_COOKIE)[SESSION_COOKIE];
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
}

/** Resolves a Cookie header to a live session, or undefined. For non-Hono callers (/mqtt). */
export async function sessionFromCookieHeader(
  store: Store,
  cookieHeader: string | null | undefined,
  now: number,
): Promise<Session | undefined> {
  const token = sessionTokenFromCookieHeader(cookieHeader);
  return token === undefined ? undefined : store.access.getSession(tokenHash(token), now);
}

/**
 * 401 UNAUTHORIZED without a live session, 403 FORBIDDEN when its role is below `role`;
 * otherwise `c.get('session')` holds it.
 */
export function requireSession(deps: SessionDeps, role?: OperatorRole) {
  return createMiddleware<{ Variables: SessionVariables }>(async (c, next) => {
    const session = await sessionFromCookieHeader(deps.store, c.req.header('cookie'), deps.clock.now());
    if (!session) throw new CodedError('UNAUTHORIZED', 'Sign in first: this needs an operator session.');
    if (role !== undefined && !hasRole(session.role, role)) {
      throw new CodedError('FORBIDDEN', `This needs the ${role} role; this session is ${session.role}.`);
    }
    c.set('session', session);
    await next();
  });
}
