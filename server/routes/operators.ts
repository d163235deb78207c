// /api/me and /api/presence: operators as people to each other. A display name
// (decisions-server.md §55) and who else is on a console page (§56). Both are writes of any
// signed-in operator, observers included, bounded per client address and per operator DID.
import { Hono } from 'hono';
import { Me, MeBody, PresenceAnswer, PresenceBody, PresenceQuery } from '@shared/contract/operators';
import { CodedError } from '@shared/errors';
import { EXPIRES_MS, HEARTBEAT_MS, type OperatorPresence } from '../auth/operator-presence';
import { tokenHash } from '../auth/tokens';
import type { Clock } from '../clock';
import { rateLimited } from '../http/error-family';
import type { HttpLimits } from '../http/limits';
import { clientAddress, TokenBucketLimiter } from '../http/rate-limit';
import { jsonBody } from '../http/request-body';
import { reply } from '../http/reply';
import { requireSession, sessionTokenFromCookieHeader, type SessionVariables } from '../http/session';
import type { Store } from '../store/store';

export interface OperatorRouteDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly presence: OperatorPresence;
  readonly limits: Pick<HttpLimits, 'operatorWritesPerAddress' | 'operatorWritesPerDid'>;
}

const BODY_LIMIT = { maxBytes: 4 * 1024 };

export function operatorRoutes(deps: OperatorRouteDeps) {
  const { store, clock, presence } = deps;
  const signedIn = requireSession({ store, clock });
  const perAddress = new TokenBucketLimiter({ ...deps.limits.operatorWritesPerAddress, clock });
  const perDid = new TokenBucketLimiter({ ...deps.limits.operatorWritesPerDid, clock });
  /** Charged after the session is known, so a stranger's requests never spend an operator's budget. */
  const charge = (address: string, did: string): void => {
    for (const [limiter, key, what] of [
      [perAddress, address, 'operator writes from this address'],
      [perDid, did, 'operator writes for this key'],
    ] as const) {
      const verdict = limiter.take(key);
      if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, what);
    }
  };
  const answer = (where: string) => ({
    where,
    now: clock.now(),
    heartbeatMs: HEARTBEAT_MS,
    expiresMs: EXPIRES_MS,
    operators: presence.list(where),
  });

  const me = new Hono<{ Variables: SessionVariables }>().patch(
    '/',
    signedIn,
    jsonBody(MeBody, BODY_LIMIT),
    async (c) => {
      const session = c.get('session');
      charge(clientAddress(c), session.did);
      const { name } = c.req.valid('json');
      const before = await store.access.getOperator(session.did);
      // The session outlived its operator (removed by the CLI): nobody to rename.
      if (!before || !(await store.access.setOperatorName(session.did, name)))
        throw new CodedError('UNAUTHORIZED', 'Sign in first: this needs an operator session.');
      if (before.name !== name) {
        await store.access.appendAudit({
          at: clock.now(),
          actorDid: session.did,
          action: 'operator.name',
          roomId: null,
          messageId: null,
          details: { from: before.name ?? null, to: name },
        });
      }
      return reply(c, Me, { did: session.did, role: session.role, name }, 200);
    },
  );

  const present = new Hono<{ Variables: SessionVariables }>()
    .post('/', signedIn, jsonBody(PresenceBody, BODY_LIMIT), async (c) => {
      const session = c.get('session');
      charge(clientAddress(c), session.did);
      const { where } = c.req.valid('json');
      // requireSession found the session from this cookie, so the token is there.
      const token = sessionTokenFromCookieHeader(c.req.header('cookie'))!;
      const name = (await store.access.getOperator(session.did))?.name ?? null;
      presence.beat(tokenHash(token), where, { did: session.did, role: session.role, name });
      return reply(c, PresenceAnswer, answer(where), 200);
    })
    .get('/', signedIn, (c) => {
      const query = PresenceQuery.safeParse({ where: c.req.query('where') });
      if (!query.success) throw new CodedError('INVALID_REQUEST', 'where must be a console path such as /rooms/ops.');
      c.header('Cache-Control', 'no-store');
      return reply(c, PresenceAnswer, answer(query.data.where), 200);
    });

  return { me, presence: present };
}
