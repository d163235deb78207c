// The demo's Agora side: three service agents (translation, weather, room
// booking) that register signed manifests, answer REQUESTs with OFFERs and, once accepted,
// with RESULTs; and a concierge that asks them for something now and then, so a fresh install
// shows a live directory and live threads. Every envelope is signed with the sender's own key
// and goes through the relay's HTTP API like any agent's.
import type { Envelope, EnvelopeOf } from '@shared/agora/envelope';
import { DIRECTORY_REGISTER_INTENT } from '@shared/agora/directory-registration';
import { AgoraClient } from '@agents/agora/agora-client';
import { demoIdentity } from '../demo-identity';
import type { FetchLike } from '@agents/agora/agora-client';
import { DEMO_ASKS, DEMO_SERVICES } from './demo-services';
import type { DemoService } from './demo-services';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('demo');

export interface AgoraDemoOptions {
  readonly fetch: FetchLike;
  /** The relay's origin, e.g. http://127.0.0.1:8787 ('' with app.request). */
  readonly baseUrl: string;
  readonly seed: number;
  readonly now: () => number;
  readonly newId?: () => string;
  /** Between the concierge's requests; 0 disables the concierge. */
  readonly conciergeEveryMs?: number;
  readonly firstRequestDelayMs?: number;
  /** An agent's "work" between ACCEPT and RESULT. */
  readonly resultDelayMs?: number;
  /** Long-poll timeout, seconds. */
  readonly pollSeconds?: number;
  readonly onError?: (error: unknown) => void;
}

export interface AgoraDemoHandle {
  readonly agents: readonly { readonly did: string; readonly name: string; readonly intents: readonly string[] }[];
  readonly conciergeDid: string;
  /** Sends the concierge's next request now; resolves with its thread id. */
  ask(): Promise<string>;
  stop(): Promise<void>;
}

interface ServiceAgent {
  readonly service: DemoService;
  readonly client: AgoraClient;
  readonly intents: ReadonlySet<string>;
  /** Threads this agent offered on: OFFER id and the request it answers. */
  readonly offers: Map<string, { offerId: string; intent: string; params: Record<string, unknown>; requestId: string }>;
}

export const demoServiceIdentity = (seed: number, service: DemoService) =>
  demoIdentity(seed, service.key, service.displayName);
export const demoConciergeIdentity = (seed: number) => demoIdentity(seed, 'concierge', 'Demo Concierge');

export async function startAgoraDemo(options: AgoraDemoOptions): Promise<AgoraDemoHandle> {
  const newId = options.newId ?? (() => globalThis.crypto.randomUUID());
  const onError = options.onError ?? ((error: unknown) => log.error({ demo: 'agora', err: error }, 'demo step failed'));
  const client = (identity: ReturnType<typeof demoIdentity>) =>
    new AgoraClient(identity, options.fetch, options.baseUrl, options.now, newId);
  const agents: ServiceAgent[] = DEMO_SERVICES.map((service) => ({
    service,
    client: client(demoServiceIdentity(options.seed, service)),
    intents: new Set(service.manifest.intents.map((i) => i.id)),
    offers: new Map(),
  }));
  const concierge = client(demoConciergeIdentity(options.seed));
  const mine = new Set(agents.map((a) => a.client.identity.did as string));
  const conciergeThreads = new Set<string>();
  const stopped = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, task: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped.signal.aborted) task().catch(onError);
    }, ms);
    timers.add(timer);
  };

  for (const agent of agents) {
    const { service, client: c } = agent;
    const registration = c.sign(
      'REQUEST',
      {
        request_id: `reg_${newId()}`,
        intent: DIRECTORY_REGISTER_INTENT,
        params: {
          manifest: {
            ...service.manifest,
            auth: { methods: ['ed25519'], public_key: c.identity.did.slice('did:key:'.length) },
          },
        },
      },
      `directory_${newId()}`,
    );
    await c.post(registration, '/agents');
  }

  const offer = async (agent: ServiceAgent, request: EnvelopeOf<'REQUEST'>) => {
    const { request_id: requestId, intent } = request.payload;
    if (!agent.intents.has(intent)) {
      if (request.recipient?.id !== agent.client.identity.did) return;
      await agent.client.post(
        agent.client.sign(
          'ERROR',
          {
            code: 'INTENT_NOT_SUPPORTED',
            message: `${agent.service.displayName} does not offer ${intent}.`,
            request_id: requestId,
          },
          request.thread.id,
          request.sender.id,
        ),
      );
      return;
    }
    const { service } = agent;
    const envelope = agent.client.sign(
      'OFFER',
      {
        request_id: requestId,
        plan: `${service.displayName}: ${service.manifest.intents.find((i) => i.id === intent)?.name ?? intent}`,
        price: { amount: service.price, currency: 'USD' },
        eta_seconds: service.etaSeconds,
        valid_until: new Date(options.now() + 5 * 60_000).toISOString(),
      },
      request.thread.id,
      request.sender.id,
    );
    agent.offers.set(request.thread.id, {
      offerId: envelope.id,
      intent,
      params: request.payload.params ?? {},
      requestId,
    });
    await agent.client.post(envelope);
  };

  const deliver = async (agent: ServiceAgent, accept: EnvelopeOf<'ACCEPT'>) => {
    const offered = agent.offers.get(accept.thread.id);
    if (!offered) return;
    agent.offers.delete(accept.thread.id);
    const started = options.now();
    later(options.resultDelayMs ?? 1_200, () =>
      agent.client.post(
        agent.client.sign(
          'RESULT',
          {
            request_id: offered.requestId,
            status: 'success',
            output: agent.service.answer(offered.intent, offered.params),
            artifacts: [],
            metrics: { latency_ms: options.now() - started, cost_actual: agent.service.price },
          },
          accept.thread.id,
          accept.sender.id,
        ),
      ),
    );
  };

  const handle = async (event: Envelope) => {
    switch (event.type) {
      case 'REQUEST': {
        if (mine.has(event.sender.id) || (event.payload.params as { seeded?: unknown } | undefined)?.seeded === true)
          return;
        for (const agent of agents) {
          if (event.recipient === undefined || event.recipient.id === agent.client.identity.did)
            await offer(agent, event);
        }
        return;
      }
      case 'ACCEPT':
        for (const agent of agents)
          if (event.recipient === undefined || event.recipient.id === agent.client.identity.did)
            await deliver(agent, event);
        return;
      case 'OFFER':
        // The concierge takes the first offer on each thread it opened.
        if (event.recipient?.id === concierge.identity.did && conciergeThreads.delete(event.thread.id)) {
          await concierge.post(
            concierge.sign(
              'ACCEPT',
              {
                request_id: event.payload.request_id,
                offer_id: event.id,
                accepted_at: new Date(options.now()).toISOString(),
                terms: { price_usd: event.payload.price?.amount ?? 0 },
              },
              event.thread.id,
              event.sender.id,
            ),
          );
        }
        return;
      case 'RESULT':
      case 'CANCEL':
      case 'ERROR':
        return;
    }
  };

  // Each party long-polls its own inbox (recipient = its DID), from "now": history is not
  // answered again after a restart, and the directory sees each agent listening. A timestamp
  // `since` is "after this time" (decisions-agora.md §37): one ms back takes an event of this ms.
  const listen = async (c: AgoraClient) => {
    let since = new Date(options.now() - 1).toISOString();
    while (!stopped.signal.aborted) {
      try {
        const answer = await c.poll(since, options.pollSeconds ?? 25, { recipient: c.identity.did }, stopped.signal);
        since = answer.cursor;
        for (const event of answer.events) await handle(event).catch(onError);
      } catch (error) {
        if (stopped.signal.aborted) return;
        onError(error);
        await new Promise((resolve) => later(2_000, async () => resolve(undefined)));
      }
    }
  };
  const loops = Promise.all([concierge, ...agents.map((a) => a.client)].map(listen));

  let next = 0;
  const ask = async (): Promise<string> => {
    const item = DEMO_ASKS[next++ % DEMO_ASKS.length]!;
    const target = agents.find((a) => a.service === item.service)!;
    const thread = `thread_${newId()}`;
    conciergeThreads.add(thread);
    await concierge.post(
      concierge.sign(
        'REQUEST',
        {
          request_id: `req_${newId()}`,
          intent: item.intent,
          title: item.title,
          params: item.params,
          constraints: { max_cost_usd: 0.05 },
        },
        thread,
        target.client.identity.did,
      ),
    );
    return thread;
  };
  const every = options.conciergeEveryMs ?? 45_000;
  if (every > 0) {
    const tick = () => later(every, async () => void (await ask(), tick()));
    later(options.firstRequestDelayMs ?? 3_000, async () => void (await ask(), tick()));
  }

  return {
    agents: agents.map((a) => ({ did: a.client.identity.did, name: a.service.displayName, intents: [...a.intents] })),
    conciergeDid: concierge.identity.did,
    ask,
    async stop() {
      stopped.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await loops;
    },
  };
}
