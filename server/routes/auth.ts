// /api/auth: operator identity by signed challenge. The browser keeps its Ed25519 key; it signs
// the RFC 8785 canonical bytes of the challenge object, and the server recomputes those bytes
// from what it stored (nonce, expiresAt), so a signature over anything else never verifies.
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { deleteCookie, setCookie } from 'hono/cookie';
import { decodeBase64url } from '@shared/crypto/base64url';
import { canonicalBytes } from '@shared/crypto/jcs';
import { Challenge, EnrollBody, LoginBody, OperatorSession, type LoginChallenge } from '@shared/contract/auth';
import { CodedError } from '@shared/errors';
import { randomToken, tokenHash } from '../auth/tokens';
import type { Clock } from '../clock';
import type { DidVerifier } from '../crypto/node-verifier';
import { rateLimited } from '../http/error-family';
import { clientAddress, rateLimit, type TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { isHttps } from '../http/request-origin';
import { bodyCap, jsonBody } from '../http/request-body';
import {
  sessionFromCookieHeader,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionTokenFromCookieHeader,
  type SessionVariables,
} from '../http/session';
import type { Operator, Store } from '../store/store';

const ENROLLMENT_REFUSED = {
  unknown: 'This enrollment link is not one this console made; check that it was copied whole, or ask for a new one.',
  used: 'This enrollment link was already used; each link enrolls one key. Ask a facilitator for a new one.',
  expired: 'This enrollment link has expired; ask a facilitator for a new one.',
} as const;

export const CHALLENGE_PURPOSE: LoginChallenge['purpose'] = 'switchboard-login';
export const CHALLENGE_TTL_MS = 60_000;
export const AUTH_BODY_LIMIT_BYTES = 16 * 1024;

export interface AuthDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly verifier: DidVerifier;
  /**
   * Failed sign-ins and enrollments per client address: charged by a failure, never by a success,
   * so nobody on an operator's address can lock the operator out (decisions-server.md §42).
   */
  readonly limiter: TokenBucketLimiter;
  /** Challenges and logouts per client address (the limiter above when absent). */
  readonly challengeLimiter?: TokenBucketLimiter;
  /**
   * Sessions opened per operator DID (login, enroll), charged once the signature verifies: a
   * claimed DID costs nothing, so nobody can spend another operator's budget (decisions-server §26).
   */
  readonly didLimiter?: TokenBucketLimiter;
  /** Told after a logout or a re-enrollment (a new role): the broker then checks open /mqtt sockets at once. */
  readonly sessionsChanged?: () => void;
  /** Told after each session opens (the sessions metric, server/metrics/). */
  readonly sessionOpened?: (how: 'login' | 'enroll') => void;
}

/** The object the client signs (its canonical bytes), rebuilt from the stored challenge. */
export const challengeDocument = (nonce: string, expiresAt: number) => ({
  purpose: CHALLENGE_PURPOSE,
  nonce,
  expiresAt,
});

export function authRoutes(deps: AuthDeps) {
  const { store, clock, verifier } = deps;

  /** Consumes the challenge (single use, even when the signature then fails) and verifies it. */
  async function verifySignedChallenge(body: LoginBody): Promise<void> {
    const expiresAt = await store.access.consumeChallenge(body.nonce, clock.now());
    if (expiresAt === undefined) {
      throw new CodedError('CHALLENGE_INVALID', 'The challenge is unknown, already used or expired; fetch a new one.');
    }
    let signature: Uint8Array;
    try {
      signature = decodeBase64url(body.signature);
    } catch {
      throw new CodedError('SIGNATURE_INVALID', 'The signature is not unpadded base64url.');
    }
    if (!verifier.verify(body.did, canonicalBytes(challengeDocument(body.nonce, expiresAt)), signature)) {
      throw new CodedError('SIGNATURE_INVALID', 'The signature does not verify for this did:key over the challenge.');
    }
  }

  async function startSession(c: Context, operator: Pick<Operator, 'did' | 'role' | 'name'>, how: 'login' | 'enroll') {
    const token = randomToken();
    await store.access.createSession(tokenHash(token), {
      did: operator.did,
      role: operator.role,
      expiresAt: clock.now() + SESSION_TTL_MS,
    });
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: isHttps(c),
      maxAge: SESSION_TTL_MS / 1000,
    });
    deps.sessionOpened?.(how);
    return { did: operator.did, role: operator.role, name: operator.name ?? null };
  }

  const limited = rateLimit(deps.challengeLimiter ?? deps.limiter);
  /**
   * The attempt runs whatever the address's budget; one that fails (a 4xx) is charged to it, and
   * once it is spent a failure is answered 429 instead of its own code. A sign-in whose signature
   * verifies is charged to its DID only (overDidBudget), and the work a failure can cost is bounded
   * by the challenges it needs.
   */
  const chargeFailures = createMiddleware(async (c, next) => {
    await next();
    if (c.res.status < 400 || c.res.status === 429) return;
    const verdict = deps.limiter.take(clientAddress(c));
    if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'failed sign-ins from this address');
  });
  /** Throws 429 once this DID opened its budget of sessions. */
  const takeDidBudget = (did: string): void => {
    const verdict = deps.didLimiter?.take(did);
    if (verdict && !verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'sign-ins for this key');
  };
  const limits = { maxBytes: AUTH_BODY_LIMIT_BYTES };

  return (
    new Hono<{ Variables: SessionVariables }>()
      .use('*', async (c, next) => {
        await next();
        c.header('Cache-Control', 'no-store');
      })
      .get('/challenge', limited, async (c) => {
        const challenge = challengeDocument(randomToken(), clock.now() + CHALLENGE_TTL_MS);
        await store.access.createChallenge(challenge.nonce, challenge.expiresAt);
        return reply(c, Challenge, { challenge }, 200);
      })
      .post('/login', chargeFailures, jsonBody(LoginBody, limits), async (c) => {
        const body = c.req.valid('json');
        await verifySignedChallenge(body);
        takeDidBudget(body.did);
        const operator = await store.access.getOperator(body.did);
        if (!operator)
          throw new CodedError(
            'NOT_ENROLLED',
            'This key is not enrolled as an operator; ask a facilitator for an enrollment link.',
          );
        return reply(c, OperatorSession, await startSession(c, operator, 'login'), 200);
      })
      // The challenge is checked before the token, so a bad signature does not burn the token.
      .post('/enroll', chargeFailures, jsonBody(EnrollBody, limits), async (c) => {
        const body = c.req.valid('json');
        await verifySignedChallenge(body);
        takeDidBudget(body.did);
        const now = clock.now();
        const hash = tokenHash(body.token);
        const role = await store.access.consumeEnrollment(hash, now, body.did);
        if (role === undefined) {
          // Which of the three, so the page can say so (decisions-server.md §84).
          const reason = await store.access.enrollmentRefusal(hash, now);
          throw new CodedError('ENROLLMENT_INVALID', ENROLLMENT_REFUSED[reason], { reason });
        }
        // An operator enrolling again takes the new link's role, and keeps their name unless they give one.
        await store.access.putOperator({
          did: body.did,
          role,
          createdAt: now,
          ...(body.name !== undefined ? { name: body.name } : {}),
        });
        await store.access.appendAudit({
          at: now,
          actorDid: body.did,
          action: 'operator.enroll',
          roomId: null,
          messageId: null,
          details: { role, inviteId: hash.slice(0, 16), ...(body.name !== undefined ? { name: body.name } : {}) },
        });
        deps.sessionsChanged?.();
        const enrolled = await store.access.getOperator(body.did);
        return reply(
          c,
          OperatorSession,
          await startSession(c, { did: body.did, role, name: enrolled?.name ?? null }, 'enroll'),
          200,
        );
      })
      // Not rate limited: the console asks on every load, and a 256-bit token is not guessable.
      .get('/session', async (c) => {
        const session = await sessionFromCookieHeader(store, c.req.header('cookie'), clock.now());
        if (!session) {
          // `?optional=1` is the console's probe: nobody signed in is an answer there, not an
          // error a browser should log (decisions-server.md §67). Without it, a 401 as any route.
          if (c.req.query('optional') === '1') return c.body(null, 204);
          throw new CodedError('UNAUTHORIZED', 'Sign in first: this needs an operator session.');
        }
        const name = (await store.access.getOperator(session.did))?.name ?? null;
        return reply(c, OperatorSession, { did: session.did, role: session.role, name }, 200);
      })
      .post('/logout', limited, bodyCap(AUTH_BODY_LIMIT_BYTES), async (c) => {
        const token = sessionTokenFromCookieHeader(c.req.header('cookie'));
        if (token !== undefined) await store.access.deleteSession(tokenHash(token));
        deps.sessionsChanged?.();
        deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isHttps(c) });
        return c.body(null, 204);
      })
  );
}
