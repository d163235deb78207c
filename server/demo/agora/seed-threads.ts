// Agora "POST /seed": three complete threads (REQUEST → OFFER → ACCEPT → RESULT, 12 envelopes)
// between the demo concierge and the demo agents, each signed with its sender's own key and
// posted through the relay's ordinary ingest. Marked `params.seeded` so the running demo agents
// leave them alone.
import type { Envelope } from '@shared/agora/envelope';
import { AgoraClient } from '@agents/agora/agora-client';
import { demoConciergeIdentity, demoServiceIdentity } from './agora-demo';
import { DEMO_ASKS } from './demo-services';

export interface SeedOptions {
  readonly seed: number;
  readonly now: () => number;
  readonly newId?: () => string;
  /** Submits one envelope (the relay's POST /events pipeline); throws when refused. */
  readonly post: (envelope: Envelope) => Promise<void>;
}

const unused = () => {
  throw new Error('seeding posts through options.post');
};

export async function seedThreads(options: SeedOptions): Promise<number> {
  const newId = options.newId ?? (() => globalThis.crypto.randomUUID());
  const make = (identity: ReturnType<typeof demoConciergeIdentity>) =>
    new AgoraClient(identity, unused, '', options.now, newId);
  const concierge = make(demoConciergeIdentity(options.seed));
  let count = 0;
  const post = async (envelope: Envelope) => {
    await options.post(envelope);
    count++;
  };
  for (const ask of DEMO_ASKS.slice(0, 3)) {
    const agent = make(demoServiceIdentity(options.seed, ask.service));
    const thread = `thread_seed_${newId()}`;
    const requestId = `req_${newId()}`;
    await post(
      concierge.sign(
        'REQUEST',
        { request_id: requestId, intent: ask.intent, title: ask.title, params: { ...ask.params, seeded: true } },
        thread,
        agent.identity.did,
      ),
    );
    const offer = agent.sign(
      'OFFER',
      {
        request_id: requestId,
        plan: ask.service.displayName,
        price: { amount: ask.service.price, currency: 'USD' },
        eta_seconds: ask.service.etaSeconds,
      },
      thread,
      concierge.identity.did,
    );
    await post(offer);
    await post(
      concierge.sign(
        'ACCEPT',
        { request_id: requestId, offer_id: offer.id, terms: { price_usd: ask.service.price } },
        thread,
        agent.identity.did,
      ),
    );
    await post(
      agent.sign(
        'RESULT',
        {
          request_id: requestId,
          status: 'success',
          output: ask.service.answer(ask.intent, ask.params),
          artifacts: [],
          metrics: { cost_actual: ask.service.price },
        },
        thread,
        concierge.identity.did,
      ),
    );
  }
  return count;
}
