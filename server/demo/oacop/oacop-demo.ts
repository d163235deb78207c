// The demo's OACoP side: calendar agents in three time zones and two resources
// (a meeting room and a scanner, OACoP §8.2), each with its own DID, seeded calendar and signed
// directory manifest, answering scheduling threads through the relay's HTTP API like any agent.
// A fresh install can schedule a meeting end to end: propose to them (console or any client),
// read the answers at /api/scheduling/threads/{id}, confirm, and the room is booked.
import type { Envelope } from '@shared/agora/envelope';
import { DIRECTORY_REGISTER_INTENT } from '@shared/agora/directory-registration';
import type { Did } from '@shared/oacop/messages';
import { TokenBucketLimiter } from '../../http/rate-limit';
import { burnLookup, creditDemoAgents } from '../../oacop/ledger';
import { ParticipantAgent } from '@agents/oacop/participant-agent';
import { TaskWorker } from '@agents/oacop/task-worker';
import { isOacopCarrier, readCarrier } from '@shared/oacop/carrier';
import { TaskProjection } from '@shared/oacop/task-projection';
import type { Store } from '../../store/store';
import { AgoraClient, type FetchLike } from '@agents/agora/agora-client';
import { demoIdentity } from '../demo-identity';
import { deriveSeed, mulberry32 } from '../prng';
import { DEMO_CALENDARS, demoCalendar, type CalendarProfile } from './demo-calendars';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('demo');

export interface OacopDemoOptions {
  readonly fetch: FetchLike;
  readonly baseUrl: string;
  readonly seed: number;
  readonly now: () => number;
  readonly store: Store;
  /** Long-poll timeout, seconds. */
  readonly pollSeconds?: number;
  /** §6.2 minimum burn for DIDs outside the web of trust. Default "1". */
  readonly minimumBurn?: string;
  /** §6.1.3 per unknown DID: a burst, then one request per `refillSeconds`. */
  readonly rateLimit?: { readonly capacity: number; readonly refillSeconds: number };
  /** An agent's "thinking" before it answers (DEMO_PACE stepDelayMs); [0, 0] answers at once. */
  readonly replyDelayMs?: readonly [number, number];
  readonly onError?: (error: unknown) => void;
}

export interface OacopDemoAgent {
  readonly did: Did;
  readonly name: string;
  readonly timeZone: string;
  readonly kind: 'person' | 'resource';
}

export interface OacopDemoHandle {
  readonly agents: readonly OacopDemoAgent[];
  stop(): Promise<void>;
}

/** How long a blocked demo task waits before it looks at its dependencies again. */
const TASK_RECHECK_MS = 100;

export const oacopDemoIdentity = (seed: number, profile: CalendarProfile) =>
  demoIdentity(seed, profile.key, profile.name);

export async function startOacopDemo(options: OacopDemoOptions): Promise<OacopDemoHandle> {
  const onError = options.onError ?? ((error: unknown) => log.error({ demo: 'oacop', err: error }, 'demo step failed'));
  const newId = () => globalThis.crypto.randomUUID();
  const clock = { now: options.now };
  const rate = options.rateLimit ?? { capacity: 5, refillSeconds: 60 };
  const clients = DEMO_CALENDARS.map(
    (profile) =>
      new AgoraClient(oacopDemoIdentity(options.seed, profile), options.fetch, options.baseUrl, options.now, newId),
  );
  const demoDids = new Set<string>(clients.map((c) => c.identity.did));
  // Seeded DIDs with a fixed credit: the demo's burns cost something, and the same on every run.
  await creditDemoAgents(options.store.oacop, [...demoDids], options.now());
  // The web of trust (§6.2): the other demo agents and this console's enrolled operators.
  const trusts = async (did: Did) => demoDids.has(did) || (await options.store.access.getOperator(did)) !== undefined;

  const agents = DEMO_CALENDARS.map((profile, i) => {
    const client = clients[i]!;
    return new ParticipantAgent({
      client,
      store: options.store.oacop,
      calendar: demoCalendar(options.seed, profile),
      ...(profile.resource ? { resource: profile.resource } : {}),
      trusts,
      minimumBurn: options.minimumBurn ?? '1',
      ledger: (txId) => burnLookup(options.store.oacop, txId),
      limiter: new TokenBucketLimiter({ capacity: rate.capacity, refillPerSecond: 1 / rate.refillSeconds, clock }),
      random: mulberry32(deriveSeed(options.seed, 'oacop-fuzz', profile.key)),
      now: options.now,
    });
  });

  for (const [i, profile] of DEMO_CALENDARS.entries()) {
    const c = clients[i]!;
    const manifest = {
      id: `cap_${profile.key}`,
      name: profile.name,
      description: profile.resource ? 'A bookable resource (OACoP §8.2).' : 'A calendar agent (OACoP).',
      intents: [{ id: 'oacop.ProposeCollaboration', name: 'Schedule a meeting', input_schema: { type: 'object' } }],
      pricing: { model: 'free' },
      auth: { methods: ['ed25519'], public_key: c.identity.did.slice('did:key:'.length) },
      // Ours: what a console needs to show local times and a resource's constraints.
      oacop: {
        kind: profile.resource ? 'resource' : 'person',
        timeZone: profile.timeZone,
        ...(profile.resource ? { constraints: profile.resource } : {}),
      },
    };
    await c.post(
      c.sign(
        'REQUEST',
        { request_id: `reg_${newId()}`, intent: DIRECTORY_REGISTER_INTENT, params: { manifest } } as never,
        `directory_${newId()}`,
      ),
      '/agents',
    );
  }

  const stopped = new AbortController();
  const [minDelay, maxDelay] = options.replyDelayMs ?? [0, 0];
  const delays = mulberry32(deriveSeed(options.seed, 'oacop-pace'));
  const pause = async (_did: string) => {
    const ms = minDelay + Math.floor(delays() * (maxDelay - minDelay + 1));
    if (ms > 0 && !stopped.signal.aborted) await new Promise((resolve) => setTimeout(resolve, ms).unref());
  };
  // The people also take tasks (§4); what they know of others' tasks comes from the relay's
  // public stream, folded into one board (docs/decisions-oacop.md §A11).
  const board = new TaskProjection();
  let seq = 0;
  const taskPause = async () => {
    await pause('');
    if (!stopped.signal.aborted) await new Promise((resolve) => setTimeout(resolve, TASK_RECHECK_MS).unref());
    return !stopped.signal.aborted;
  };
  const workers = DEMO_CALENDARS.map((profile, i) =>
    profile.resource
      ? undefined
      : new TaskWorker({
          client: clients[i]!,
          store: options.store.oacop,
          board,
          now: options.now,
          pause: taskPause,
          onError,
        }),
  );

  // Each agent long-polls its own inbox from "now"; its thread views live in the store, so a
  // restart keeps the revision rule without answering history again. A timestamp `since` is
  // "after this time" (decisions-agora.md §37): one ms back takes an event of this ms.
  const loop = async (
    client: AgoraClient,
    filters: Record<string, string>,
    handle: (event: Envelope) => Promise<void>,
  ) => {
    let since = new Date(options.now() - 1).toISOString();
    while (!stopped.signal.aborted) {
      try {
        const answer = await client.poll(since, options.pollSeconds ?? 25, filters, stopped.signal);
        since = answer.cursor;
        for (const event of answer.events) await handle(event as Envelope).catch(onError);
      } catch (error) {
        if (stopped.signal.aborted) return;
        onError(error);
        await new Promise((resolve) => setTimeout(resolve, 2_000).unref());
      }
    }
  };
  const inbox = (i: number) => async (event: Envelope) => {
    await pause(clients[i]!.identity.did);
    await agents[i]!.handle(event);
    await workers[i]?.handle(event);
  };
  const observe = async (event: Envelope) => {
    if (!isOacopCarrier(event)) return;
    const read = readCarrier(event);
    if (read.ok)
      board.apply({
        seq: ++seq,
        envelopeId: event.id,
        from: event.sender.id,
        to: event.recipient?.id,
        receivedAt: options.now(),
        message: read.value,
      });
  };
  const loops = Promise.all([
    ...clients.map((client, i) => loop(client, { recipient: client.identity.did }, inbox(i))),
    loop(clients[0]!, { type: 'REQUEST' }, observe),
  ]);

  return {
    agents: DEMO_CALENDARS.map((profile, i) => ({
      did: clients[i]!.identity.did,
      name: profile.name,
      timeZone: profile.timeZone,
      kind: profile.resource ? 'resource' : 'person',
    })),
    async stop() {
      stopped.abort();
      await loops;
    },
  };
}

/** The DIDs of the demo's calendar agents for a seed: this server's own parties (decisions-server.md §75). */
export const oacopDemoDids = (seed: number): string[] =>
  DEMO_CALENDARS.map((profile) => oacopDemoIdentity(seed, profile).did);
