// Agora "POST /seed" → `{ ok: true, count }`: the demo's threads (seed-threads.ts), mounted by
// app.ts. It sits with the demo because it is demo content; routes/ never imports the demo. It
// signs and stores 12 envelopes a call, so it needs a facilitator session whether or not the demo
// runs (decisions-agora.md §38).
import { Hono } from 'hono';
import { SeedAnswer } from '@shared/contract/relay';
import { CodedError } from '@shared/errors';
import type { Clock } from '../../clock';
import { seedThreads } from './seed-threads';
import { reply } from '../../http/reply';
import { sessionFromCookieHeader } from '../../http/session';
import type { RelayServices } from '../../relay/relay-services';
import type { Store } from '../../store/store';

export interface SeedRouteDeps {
  readonly services: RelayServices;
  readonly store: Store;
  readonly clock: Clock;
  readonly demoSeed: number;
}

export function seedRoutes(deps: SeedRouteDeps) {
  return new Hono().post('/', async (c) => {
    const session = await sessionFromCookieHeader(deps.store, c.req.header('cookie'), deps.clock.now());
    if (!session) throw new CodedError('UNAUTHORIZED', '/seed needs a facilitator session.');
    if (session.role !== 'facilitator')
      throw new CodedError('FORBIDDEN', `/seed needs the facilitator role; this session is ${session.role}.`);
    const count = await seedThreads({
      seed: deps.demoSeed,
      now: () => deps.clock.now(),
      post: async (envelope) => {
        const text = JSON.stringify(envelope);
        const posted = await deps.services.relay.post(text, Buffer.byteLength(text));
        if (!posted.ok) throw new CodedError(posted.error.code, posted.error.message, posted.error.details);
      },
    });
    return reply(c, SeedAnswer, { ok: true as const, count }, 200);
  });
}
