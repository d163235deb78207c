// Console reads over negotiations: the list with the console's
// filters, and one negotiation with everything the detail view shows. Operator session required.
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';
import { NegotiationDetail, NegotiationList, NegotiationListQuery } from '@shared/contract/negotiation';
import { reply } from '../http/reply';
import { requireSession, type SessionDeps } from '../http/session';
import type { NegotiationService } from '../negotiation/negotiation-service';
import { negotiationSummary } from '../negotiation/negotiation-views';
import { loadNegotiation, negotiationDetail } from './negotiation';

export function negotiationConsoleRoutes(service: NegotiationService, session: SessionDeps) {
  return new Hono()
    .use('*', requireSession(session))
    .get('/', async (c) => {
      const parsed = NegotiationListQuery.safeParse(c.req.query());
      if (!parsed.success)
        throw new CodedError(
          'INVALID_REQUEST',
          `state is one of ${NegotiationListQuery.shape.state.unwrap().options.join('|')}, party a DID, category a name, limit 1–500.`,
        );
      const { state, party, category, limit = 100 } = parsed.data;
      const records = await service.store.list({
        ...(state ? { status: state } : {}),
        ...(party ? { party } : {}),
        ...(category ? { category } : {}),
        limit,
      });
      const now = service.now();
      return reply(
        c,
        NegotiationList,
        { now: new Date(now).toISOString(), negotiations: records.map((r) => negotiationSummary(r, now)) },
        200,
      );
    })
    .get('/:id', async (c) =>
      reply(
        c,
        NegotiationDetail,
        await negotiationDetail(service, await loadNegotiation(service, c.req.param('id'))),
        200,
      ),
    );
}
