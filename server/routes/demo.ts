// The console's guided demo: what the demo agents cannot start on their own.
// Step 1 (a task in the demo room) and step 3 (a meeting with a room agent) are the operator's
// own signed actions from the browser, which the demo agents already answer; step 2 needs two
// scripted negotiating agents to negotiate afresh, so this kicks them. Facilitator only; CSRF
// like every /api route (app.ts). Nothing here deletes or rewrites history: each run is new.
import { Hono } from 'hono';
import { DemoStarted } from '@shared/contract/console';
import { CodedError } from '@shared/errors';
import { reply } from '../http/reply';
import { requireSession, type SessionDeps } from '../http/session';

export interface GuidedDemoPort {
  /** Starts a fresh pricing negotiation between two demo agents; answers once it is opened. */
  guidedPricing(
    run: string,
  ): Promise<{ readonly negotiationId: string; readonly names: Readonly<Record<string, string>> }>;
}

/** Filled in once the demo agents run (they start after the server listens); empty with DEMO=0. */
export interface GuidedDemoSlot {
  port: GuidedDemoPort | undefined;
}

export function demoRoutes(slot: GuidedDemoSlot, session: SessionDeps) {
  return new Hono().post('/negotiation', requireSession(session, 'facilitator'), async (c) => {
    const port = slot.port;
    if (!port)
      throw new CodedError(
        'SERVICE_UNAVAILABLE',
        'The demo agents are not running on this server. Start it with DEMO=1 to use the guided demo.',
      );
    const run = globalThis.crypto.randomUUID();
    const started = await port.guidedPricing(run);
    return reply(c, DemoStarted, { negotiation_id: started.negotiationId, names: started.names }, 201);
  });
}
