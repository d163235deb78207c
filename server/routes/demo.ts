// The console's guided demo: what the demo agents cannot start on their own.
// Step 1 (a task in the demo room) and step 3 (a meeting with a room agent) are the operator's
// own signed actions from the browser, which the demo agents already answer; in step 2 the demo
// seller opens a pricing negotiation with the operator, who then answers and co-signs from the
// browser (docs/decisions-demo.md §13). Facilitator only; CSRF like every /api route (app.ts);
// budgets per address and per operator. Nothing here deletes or rewrites history: each run is new.
import { Hono } from 'hono';
import { DemoNames, DemoStarted } from '@shared/contract/console';
import type { DidKey } from '@shared/crypto/did-key';
import { CodedError } from '@shared/errors';
import { rateLimited } from '../http/error-family';
import type { HttpLimits } from '../http/limits';
import { clientAddress, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { bodyCap } from '../http/request-body';
import { requireSession, type SessionDeps } from '../http/session';

export interface GuidedDemoPort {
  /** The demo seller opens a pricing negotiation with `operator` and makes its opening offer. */
  guidedPricing(
    run: string,
    operator: DidKey,
  ): Promise<{ readonly negotiationId: string; readonly names: Readonly<Record<string, string>> }>;
  /** The demo's negotiation parties: DID by display name (they follow from the demo's seed). */
  readonly parties: Readonly<Record<string, string>>;
}

/** Filled in once the demo agents run (they start after the server listens); empty with DEMO=0. */
export interface GuidedDemoSlot {
  port: GuidedDemoPort | undefined;
  /** Other demo identities by DID (the Agora concierge), named alongside the parties. */
  names?: Readonly<Record<string, string>> | undefined;
}

/** The route takes no body: anything longer than `{}` is refused before it is read. */
const MAX_BODY_BYTES = 64;

export function demoRoutes(
  slot: GuidedDemoSlot,
  session: SessionDeps,
  limits: Pick<HttpLimits, 'operatorWritesPerAddress' | 'operatorWritesPerDid'>,
) {
  const perAddress = new TokenBucketLimiter({ ...limits.operatorWritesPerAddress, clock: session.clock });
  const perDid = new TokenBucketLimiter({ ...limits.operatorWritesPerDid, clock: session.clock });
  return new Hono()
    .get('/names', requireSession(session), (c) => {
      // Read-only and small (six names); any operator, observers included, may name what they see.
      const parties = slot.port?.parties ?? {};
      const names = {
        ...slot.names,
        ...Object.fromEntries(Object.entries(parties).map(([name, did]) => [did, name])),
      };
      return reply(c, DemoNames, { names }, 200);
    })
    .post(
      '/negotiation',
      rateLimit(perAddress, clientAddress),
      bodyCap(MAX_BODY_BYTES),
      requireSession(session, 'facilitator'),
      async (c) => {
        const { did } = c.get('session');
        const verdict = perDid.take(did);
        if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'guided negotiations by this operator');
        const port = slot.port;
        if (!port)
          throw new CodedError(
            'SERVICE_UNAVAILABLE',
            'The demo agents are not running on this server. Start it with DEMO=1 to use the guided demo.',
          );
        const run = globalThis.crypto.randomUUID();
        const started = await port.guidedPricing(run, did as DidKey);
        return reply(c, DemoStarted, { negotiation_id: started.negotiationId, names: started.names }, 201);
      },
    );
}
