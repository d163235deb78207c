// /api/agent-accounts: agents as the console runs them (shared/contract/agents.ts). Everyone
// signed in reads, a page at a time (decisions-server.md §87); facilitators act (CSRF in app.ts), each action bounded per client address and
// per facilitator DID and capped in body size. A password is in the answer that issued it only.
import { Hono } from 'hono';
import {
  AGENT_PAGE,
  AgentAccountAnswer,
  AgentAccountList,
  AgentAccountQuery,
  AgentId,
  CreateAgentBody,
  DisconnectAnswer,
  IssuedCredential,
  RemovedAnswer,
  SuspendAnswer,
  SuspendBody,
} from '@shared/contract/agents';
import { CodedError } from '@shared/errors';
import type { AgentService } from '../agents/agent-service';
import { rateLimited } from '../http/error-family';
import type { HttpLimits } from '../http/limits';
import { clientAddress, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { bodyCap, jsonBody } from '../http/request-body';
import { requireSession, type SessionDeps } from '../http/session';

/** An agentId or a reason: a few hundred bytes. */
export const AGENT_ROUTE_BODY_BYTES = 4 * 1024;
const BODY = { maxBytes: AGENT_ROUTE_BODY_BYTES };

export interface AgentAccountDeps {
  readonly service: AgentService;
  /** Where agents connect (known once the broker serves). */
  readonly mqttUrl: () => string;
}

export function agentAccountRoutes(
  deps: AgentAccountDeps,
  session: SessionDeps,
  limits: Pick<HttpLimits, 'operatorWritesPerAddress' | 'operatorWritesPerDid'>,
) {
  const { service } = deps;
  const perAddress = new TokenBucketLimiter({ ...limits.operatorWritesPerAddress, clock: session.clock });
  const perDid = new TokenBucketLimiter({ ...limits.operatorWritesPerDid, clock: session.clock });
  const reader = requireSession(session);
  const facilitator = requireSession(session, 'facilitator');
  const byAddress = rateLimit(perAddress, clientAddress);
  const noBody = bodyCap(BODY.maxBytes);
  /** Charged once the session is known, so a stranger never spends a facilitator's budget. */
  const spend = (did: string) => {
    const verdict = perDid.take(did);
    if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'agent changes by this operator');
  };
  /** The path's agentId, checked as the body's would be: bad input changes nothing. */
  const agentIdOf = (raw: string) => {
    const parsed = AgentId.safeParse(raw);
    if (!parsed.success) throw new CodedError('INVALID_REQUEST', 'Not an agentId.', { reason: 'agent_id_invalid' });
    return parsed.data;
  };
  /** A read names no 400 (the contract): an id that cannot be an agent's has no credential. */
  const readAgentId = (raw: string) => {
    if (!AgentId.safeParse(raw).success)
      throw new CodedError('AGENT_NOT_FOUND', 'No agent has this id.', { reason: 'agent_id_invalid' });
    return raw;
  };

  return new Hono()
    .get('/', reader, async (c) => {
      const parsed = AgentAccountQuery.safeParse(c.req.query());
      if (!parsed.success)
        throw new CodedError(
          'INVALID_REQUEST',
          parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          { reason: 'query_invalid' },
        );
      const { limit = AGENT_PAGE, after, search } = parsed.data;
      const page = await service.page({ limit, after, search });
      return reply(
        c,
        AgentAccountList,
        { now: session.clock.now(), mqttUrl: deps.mqttUrl(), broker: service.broker, ...page },
        200,
      );
    })
    .post('/', byAddress, facilitator, jsonBody(CreateAgentBody, BODY), async (c) => {
      const { did } = c.get('session');
      spend(did);
      const issued = await service.create(c.req.valid('json').agentId, did);
      return reply(c, IssuedCredential, { ...issued, mqttUrl: deps.mqttUrl() }, 201);
    })
    .get('/:agentId', reader, async (c) =>
      reply(c, AgentAccountAnswer, { agent: await service.get(readAgentId(c.req.param('agentId'))) }, 200),
    )
    .delete('/:agentId', byAddress, noBody, facilitator, async (c) => {
      const { did } = c.get('session');
      spend(did);
      const agentId = agentIdOf(c.req.param('agentId'));
      await service.remove(agentId, did);
      return reply(c, RemovedAnswer, { agentId, removed: true }, 200);
    })
    .post('/:agentId/rotate', byAddress, noBody, facilitator, async (c) => {
      const { did } = c.get('session');
      spend(did);
      const issued = await service.rotate(agentIdOf(c.req.param('agentId')), did);
      return reply(c, IssuedCredential, { ...issued, mqttUrl: deps.mqttUrl() }, 200);
    })
    .post('/:agentId/disconnect', byAddress, noBody, facilitator, async (c) => {
      const { did } = c.get('session');
      spend(did);
      const agentId = agentIdOf(c.req.param('agentId'));
      const disconnected = await service.disconnect(agentId, did);
      return reply(c, DisconnectAnswer, { agentId, disconnected }, 200);
    })
    .post('/:agentId/suspend', byAddress, facilitator, jsonBody(SuspendBody, BODY), async (c) => {
      const { did } = c.get('session');
      spend(did);
      const agentId = agentIdOf(c.req.param('agentId'));
      const answer = await service.suspend(agentId, c.req.valid('json').reason, did);
      return reply(c, SuspendAnswer, answer, 200);
    })
    .post('/:agentId/resume', byAddress, noBody, facilitator, async (c) => {
      const { did } = c.get('session');
      spend(did);
      const agent = await service.resume(agentIdOf(c.req.param('agentId')), did);
      return reply(c, AgentAccountAnswer, { agent }, 200);
    });
}
