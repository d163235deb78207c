// Agora "POST /seed" → `{ ok: true, count }`. Open to anyone while the demo runs (it only adds
// demo threads); otherwise it needs a facilitator session (issue 5 item 2).
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';
import type { Clock } from '../clock';
import { seedThreads } from '../demo/agora/seed-threads';
import { sessionFromCookieHeader } from '../http/session';
import type { RelayServices } from '../relay/relay-services';
import type { Store } from '../store/store';

export interface SeedRouteDeps {
  readonly services: RelayServices;
  readonly store: Store;
  readonly clock: Clock;
  readonly demo: boolean;
  readonly demoSeed: number;
}

export function seedRoutes(deps: SeedRouteDeps) {
  return new Hono().post('/', async (c) => {
    if (!deps.demo) {
      const session = await sessionFromCookieHeader(deps.store, c.req.header('cookie'), deps.clock.now());
      if (!session) throw new CodedError('UNAUTHORIZED', 'With the demo off, /seed needs a facilitator session.');
      if (session.role !== 'facilitator') throw new CodedError('FORBIDDEN', `With the demo off, /seed needs the facilitator role; this session is ${session.role}.`);
    }
    const count = await seedThreads({
      seed: deps.demoSeed,
      now: () => deps.clock.now(),
      post: async (envelope) => {
        const text = JSON.stringify(envelope);
        const posted = await deps.services.relay.post(text, Buffer.byteLength(text));
        if (!posted.ok) throw new CodedError(posted.error.code, posted.error.message, posted.error.details);
      },
    });
    return c.json({ ok: true as const, count }, 200);
  });
}
