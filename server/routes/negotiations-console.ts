// Console reads over negotiations: the list with the console's
// filters, and one negotiation with everything the detail view shows. Operator session required.
import { Hono } from 'hono';
import { z } from 'zod';
import { CodedError } from '@shared/errors';
import { NegotiationStatus } from '@shared/negotiation/state';
import { requireSession, type SessionDeps } from '../http/session';
import type { NegotiationService } from '../negotiation/negotiation-service';
import { negotiationSummary } from '../negotiation/negotiation-views';
import { loadNegotiation, negotiationDetail } from './negotiation';

const ListQuery = z.object({
  state: NegotiationStatus.optional(),
  party: z.string().min(1).max(512).optional(),
  category: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export function negotiationConsoleRoutes(service: NegotiationService, session: SessionDeps) {
  return new Hono()
    .use('*', requireSession(session))
    .get('/', async (c) => {
      const parsed = ListQuery.safeParse(c.req.query());
      if (!parsed.success) throw new CodedError('INVALID_REQUEST', `state is one of ${NegotiationStatus.options.join('|')}, party a DID, category a name, limit 1–500.`);
      const { state, party, category, limit = 100 } = parsed.data;
      const records = await service.store.list({ ...(state ? { status: state } : {}), ...(party ? { party } : {}), ...(category ? { category } : {}), limit });
      const now = service.now();
      return c.json({ now: new Date(now).toISOString(), negotiations: records.map((r) => negotiationSummary(r, now)) }, 200);
    })
    .get('/:id', async (c) => c.json(await negotiationDetail(service, await loadNegotiation(service, c.req.param('id'))), 200));
}
