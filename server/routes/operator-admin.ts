// /api/operators: the people who may sign in, and the links that invite more (facilitators only,
// decisions-server.md §84); /api/activity: what people and agents did, across rooms, paged by
// keyset (§83). Every change is audited, bounded per client address and per facilitator DID, and
// never leaves the console without a facilitator.
import { Hono } from 'hono';
import { ActivityPage, ActivityQuery, type ActivityEntry } from '@shared/contract/activity';
import {
  InviteAnswer,
  InviteBody,
  InviteRevoked,
  OperatorAnswer,
  OperatorRemoved,
  OperatorsAnswer,
  RoleBody,
} from '@shared/contract/operators';
import { CodedError } from '@shared/errors';
import { inviteOperator } from '../auth/enrollment';
import type { Clock } from '../clock';
import { rateLimited } from '../http/error-family';
import type { HttpLimits } from '../http/limits';
import { clientAddress, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { bodyCap, jsonBody } from '../http/request-body';
import { requireSession, type SessionVariables } from '../http/session';
import type { Operator, Store } from '../store/store';

export interface OperatorAdminDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly limits: Pick<HttpLimits, 'operatorWritesPerAddress' | 'operatorWritesPerDid'>;
  /** Told after a role change or a removal: the broker checks open /mqtt sockets at once. */
  readonly sessionsChanged?: () => void;
}

const BODY = { maxBytes: 4 * 1024 };
const ACTIVITY_PAGE = 50;
const HOUR_MS = 3_600_000;

/** A page names each person once: their display name, null for `cli` and anyone not an operator. */
function namer(store: Store) {
  const names = new Map<string, Promise<string | null>>();
  return (did: string | null): Promise<string | null> => {
    if (did === null || !did.startsWith('did:')) return Promise.resolve(null);
    let name = names.get(did);
    if (!name) names.set(did, (name = store.access.getOperator(did).then((o) => o?.name ?? null)));
    return name;
  };
}

const view = (o: Operator) => ({ did: o.did, role: o.role, name: o.name ?? null, createdAt: o.createdAt });

export function operatorAdminRoutes(deps: OperatorAdminDeps) {
  const { store, clock } = deps;
  const session = { store, clock };
  const facilitator = requireSession(session, 'facilitator');
  const reader = requireSession(session);
  const perAddress = new TokenBucketLimiter({ ...deps.limits.operatorWritesPerAddress, clock });
  const perDid = new TokenBucketLimiter({ ...deps.limits.operatorWritesPerDid, clock });
  const byAddress = rateLimit(perAddress, clientAddress);
  /** Charged once the session is known, so a stranger never spends a facilitator's budget. */
  const spend = (did: string) => {
    const verdict = perDid.take(did);
    if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'operator changes by this facilitator');
  };
  const audit = (actorDid: string, action: string, details: Record<string, unknown>) =>
    store.access.appendAudit({ at: clock.now(), actorDid, action, roomId: null, messageId: null, details });
  const existing = async (did: string): Promise<Operator> => {
    const operator = did.length <= 128 ? await store.access.getOperator(did) : undefined;
    if (!operator) throw new CodedError('OPERATOR_NOT_FOUND', 'No operator has this key.', { did: did.slice(0, 128) });
    return operator;
  };
  /**
   * The console keeps at least one facilitator: nobody can demote or remove the last one, or
   * nobody could invite again (decisions-server.md §84). Checked before the write; two
   * facilitators demoting each other at the same instant is the race this does not close.
   */
  const keepAFacilitator = async (leaving: Operator) => {
    if (leaving.role !== 'facilitator') return;
    const others = (await store.access.listOperators()).filter(
      (o) => o.role === 'facilitator' && o.did !== leaving.did,
    );
    if (others.length === 0)
      throw new CodedError(
        'LAST_FACILITATOR',
        'This is the last facilitator: make another operator a facilitator first, or nobody could invite again.',
      );
  };

  const operators = new Hono<{ Variables: SessionVariables }>()
    .get('/', facilitator, async (c) => {
      const now = clock.now();
      const nameOf = namer(store);
      const invites = await store.access.listPendingInvites(now);
      c.header('Cache-Control', 'no-store');
      return reply(
        c,
        OperatorsAnswer,
        {
          now,
          operators: (await store.access.listOperators()).map(view),
          invites: await Promise.all(invites.map(async (i) => ({ ...i, createdByName: await nameOf(i.createdBy) }))),
        },
        200,
      );
    })
    .post('/invites', byAddress, facilitator, jsonBody(InviteBody, BODY), async (c) => {
      const { did } = c.get('session');
      spend(did);
      const { role, expiresInHours } = c.req.valid('json');
      const invite = await inviteOperator(store, { role, ttlMs: expiresInHours * HOUR_MS, by: did, now: clock.now() });
      c.header('Cache-Control', 'no-store');
      return reply(c, InviteAnswer, { id: invite.id, role, token: invite.token, expiresAt: invite.expiresAt }, 201);
    })
    .delete('/invites/:id', byAddress, bodyCap(BODY.maxBytes), facilitator, async (c) => {
      const { did } = c.get('session');
      spend(did);
      const id = c.req.param('id');
      if (!(await store.access.revokeInvite(id)))
        throw new CodedError('INVITE_NOT_FOUND', 'No unused link has this id: it was used, withdrawn or has expired.');
      await audit(did, 'operator.invite_revoke', { inviteId: id });
      return reply(c, InviteRevoked, { id, revoked: true }, 200);
    })
    .patch('/:did', byAddress, facilitator, jsonBody(RoleBody, BODY), async (c) => {
      const actor = c.get('session').did;
      spend(actor);
      const target = await existing(c.req.param('did'));
      const { role } = c.req.valid('json');
      if (target.role !== role) {
        if (role !== 'facilitator') await keepAFacilitator(target);
        await store.access.setOperatorRole(target.did, role);
        // The name is kept in the entry, so it still names them once they are removed.
        await audit(actor, 'operator.role', {
          did: target.did,
          from: target.role,
          to: role,
          name: target.name ?? null,
        });
        deps.sessionsChanged?.();
      }
      return reply(c, OperatorAnswer, { operator: view({ ...target, role }) }, 200);
    })
    .delete('/:did', byAddress, bodyCap(BODY.maxBytes), facilitator, async (c) => {
      const actor = c.get('session').did;
      spend(actor);
      const target = await existing(c.req.param('did'));
      await keepAFacilitator(target);
      if (!(await store.access.removeOperator(target.did))) await existing(target.did);
      // The name is kept in the entry: the operator record that held it is gone.
      await audit(actor, 'operator.remove', { did: target.did, role: target.role, name: target.name ?? null });
      deps.sessionsChanged?.();
      return reply(c, OperatorRemoved, { did: target.did, removed: true }, 200);
    });

  const activity = new Hono<{ Variables: SessionVariables }>().get('/', reader, async (c) => {
    const parsed = ActivityQuery.safeParse(c.req.query());
    if (!parsed.success)
      throw new CodedError(
        'INVALID_REQUEST',
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    const q = parsed.data;
    const limit = q.limit ?? ACTIVITY_PAGE;
    const records = await store.access.listActivity({
      limit,
      ...(q.actor !== undefined ? { actorDid: q.actor } : {}),
      ...(q.kind !== undefined ? { kind: q.kind } : {}),
      ...(q.target !== undefined ? { target: q.target } : {}),
      ...(q.room !== undefined ? { roomId: q.room } : {}),
      ...(q.before !== undefined ? { before: q.before } : {}),
    });
    const nameOf = namer(store);
    const entries: ActivityEntry[] = await Promise.all(
      records.map(async (r) => ({
        ...r,
        details: { ...r.details },
        actorName: await nameOf(r.actorDid),
        targetName: (await nameOf(r.target)) ?? (typeof r.details.name === 'string' ? r.details.name : null),
      })),
    );
    c.header('Cache-Control', 'no-store');
    return reply(
      c,
      ActivityPage,
      { entries, next: records.length === limit ? (records.at(-1)?.id ?? null) : null },
      200,
    );
  });

  return { operators, activity };
}
