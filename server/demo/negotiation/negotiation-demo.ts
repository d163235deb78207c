// The demo's RFC 0002 side: negotiating agents that talk to the server over
// HTTP like any party, so a fresh install shows a multi-round pricing negotiation ending in a
// co-signed agreement in the transparency log, a scheduling one between a regulated clinic and
// a calendar (terms redacted in the log, obligations flagged), one left to expire, and one
// withdrawn. Keys, terms, ids and salt seeds follow from DEMO_SEED; times from the clock.
import type { DidKey } from '@shared/crypto/did-key';
import type { Terms } from '@shared/negotiation/primitives';
import type { Span } from '../demo-config';
import { deriveSeed, mulberry32, randomInt, type Random } from '../prng';
import { NegotiationParty, seededBytes, type FetchLike } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo-identity';
import { moduleLogger } from '../../logging/logger';
import { AGENT_POLICIES, GUIDED_OPENING } from './agent-policies';
import { startNegotiationResponder, type NegotiationResponderOptions } from './negotiation-responder';

const log = moduleLogger('demo');

export interface NegotiationDemoPace {
  /** An agent's "thinking" before each step. */
  readonly stepMs: Span;
  /** How long the proposal left to expire stays live. */
  readonly expiringValidityMs: number;
  /** Validity of every other proposal. */
  readonly validityMs: number;
}

export const NEGOTIATION_PACES: Readonly<Record<'calm' | 'fast', NegotiationDemoPace>> = {
  calm: { stepMs: [2_500, 5_000], expiringValidityMs: 90_000, validityMs: 30 * 60_000 },
  fast: { stepMs: [300, 700], expiringValidityMs: 8_000, validityMs: 10 * 60_000 },
};

export type ScenarioName = 'pricing' | 'scheduling' | 'expiring' | 'withdrawn';

export interface ScenarioOutcome {
  readonly scenario: ScenarioName;
  readonly negotiationId: string;
}

export interface NegotiationDemoOptions {
  readonly fetch: FetchLike;
  /** The server's origin, e.g. http://127.0.0.1:8787 ('' with app.request). */
  readonly baseUrl: string;
  readonly seed: number;
  readonly now: () => number;
  readonly pace?: NegotiationDemoPace;
  /** Waits `ms`; real timers by default, a clock advance in tests. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** True when this seed's demo already ran against this store (a restart does not repeat it). */
  readonly alreadyRan?: (pricingBuyer: DidKey) => Promise<boolean>;
  readonly onError?: (error: unknown) => void;
  /**
   * Hears every stored negotiation; with it the agents answer negotiations that someone outside
   * the demo opens with them (negotiation-responder.ts), which the guided demo relies on.
   */
  readonly watch?: NegotiationResponderOptions['watch'];
}

/** A pricing negotiation the console's guided demo started with the operator. */
export interface GuidedNegotiation {
  readonly negotiationId: string;
  /** The demo agent's display name by DID (the story view hides DIDs; the browser names the operator). */
  readonly names: Readonly<Record<DidKey, string>>;
}

export interface NegotiationDemoHandle {
  readonly parties: Readonly<Record<string, DidKey>>;
  /**
   * The seller opens a pricing negotiation with `operator` and makes its opening offer (ids drawn
   * from `run`); the operator answers from the browser and the responder takes it from there, so
   * the operator signs in the browser and co-signs the agreement it proposed (decisions §13).
   */
  guidedPricing(run: string, operator: DidKey): Promise<GuidedNegotiation>;
  /** Settles when every scenario has played its part (the expiring one after its deadline). */
  readonly finished: Promise<readonly ScenarioOutcome[]>;
  stop(): Promise<void>;
}

const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('stopped'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    };
    signal.addEventListener('abort', abort, { once: true });
  });

const AGENTS = {
  buyer: 'Northwind Procurement',
  seller: 'Acme Weather API',
  clinic: 'St. Mary Clinic Scheduler',
  calendar: 'Dr. Lee Calendar',
  fleet: 'Fleet Telemetry',
  lab: 'Open Research Lab',
  broker: 'Regional Data Broker',
} as const;
type AgentKey = keyof typeof AGENTS;

const eur = (n: number) => n.toFixed(4);
const iso = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
const DAY = 86_400_000;

export function startNegotiationDemo(options: NegotiationDemoOptions): NegotiationDemoHandle {
  const pace = options.pace ?? NEGOTIATION_PACES.calm;
  const sleep = options.sleep ?? realSleep;
  const stopped = new AbortController();
  const onError =
    options.onError ?? ((error: unknown) => log.error({ demo: 'negotiation', err: error }, 'demo step failed'));
  // One PRNG stream per scenario: its content does not depend on how the scenarios interleave.
  const streams = new Map<string, Random>();
  const stream = (name: string) => {
    let rng = streams.get(name);
    if (!rng) streams.set(name, (rng = mulberry32(deriveSeed(options.seed, 'negotiation', name))));
    return rng;
  };
  const party = (key: AgentKey, scenario: string) =>
    new NegotiationParty(
      negotiationIdentity(options.seed, key, AGENTS[key]),
      options.fetch,
      options.baseUrl,
      options.now,
      seededBytes(stream(scenario)),
    );
  const think = (scenario: string) =>
    sleep(randomInt(stream(`${scenario}/pace`), pace.stepMs[0], pace.stepMs[1]), stopped.signal);
  const parties = Object.fromEntries(
    (Object.keys(AGENTS) as AgentKey[]).map((k) => [AGENTS[k], negotiationIdentity(options.seed, k, AGENTS[k]).did]),
  );

  const pricing = async (scope = 'pricing'): Promise<ScenarioOutcome> => {
    const rng = stream(`${scope}/terms`);
    const buyer = party('buyer', scope);
    const seller = party('seller', scope);
    const base = {
      action: 'weather.forecast.detailed',
      calls_per_month: 100_000 + 10_000 * randomInt(rng, 0, 5),
      currency: 'EUR',
    };
    const ask = 0.0048 + randomInt(rng, 0, 4) / 10_000;
    const bid = 0.003 + randomInt(rng, 0, 3) / 10_000;
    const id = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
    await think(scope);
    await buyer.propose(id, { ...base, price_per_call_eur: eur(bid), payment_terms: 'net 30' }, pace.validityMs);
    await think(scope);
    await seller.propose(id, { ...base, price_per_call_eur: eur(ask), payment_terms: 'net 15' }, pace.validityMs);
    await think(scope);
    await buyer.propose(
      id,
      { ...base, price_per_call_eur: eur((bid + ask) / 2 - 0.0002), payment_terms: 'net 30' },
      pace.validityMs,
    );
    await think(scope);
    await seller.propose(
      id,
      {
        ...base,
        price_per_call_eur: eur((bid + ask) / 2 + 0.0001),
        payment_terms: 'net 30',
        support: 'business hours',
      },
      pace.validityMs,
    );
    await think(scope);
    await buyer.accept(id);
    await think(scope);
    await seller.cosign(id);
    return { scenario: 'pricing', negotiationId: id };
  };

  const scheduling = async (): Promise<ScenarioOutcome> => {
    const rng = stream('scheduling/terms');
    const clinic = party('clinic', 'scheduling');
    const calendar = party('calendar', 'scheduling');
    const day = options.now() + DAY * randomInt(rng, 2, 5);
    const slot = (hour: number) => ({
      effective_from: iso(day - (day % DAY) + hour * 3_600_000),
      effective_until: iso(day - (day % DAY) + hour * 3_600_000 + 30 * 60_000),
    });
    const id = await clinic.open(calendar.did, {
      category: 'scheduling',
      mine: 'confidential',
      theirs: 'internal',
      regulated: { [clinic.did]: 'medical' },
    });
    await think('scheduling');
    await clinic.propose(
      id,
      {
        ...slot(9),
        appointment: 'follow-up consultation',
        patient_ref: `pt-${randomInt(rng, 1000, 9999)}`,
        room: 'B2',
      },
      pace.validityMs,
    );
    await think('scheduling');
    await calendar.propose(
      id,
      {
        ...slot(14),
        appointment: 'follow-up consultation',
        patient_ref: 'as proposed',
        room: 'B2',
        note: 'mornings are fully booked',
      },
      pace.validityMs,
    );
    await think('scheduling');
    await clinic.accept(id);
    await think('scheduling');
    await calendar.cosign(id);
    return { scenario: 'scheduling', negotiationId: id };
  };

  const expiring = async (): Promise<ScenarioOutcome> => {
    const fleet = party('fleet', 'expiring');
    const seller = party('seller', 'expiring');
    const id = await fleet.open(seller.did, { category: 'service-level', mine: 'internal', theirs: 'public' });
    await think('expiring');
    await fleet.propose(
      id,
      { uptime_percent: 99.95, response_minutes: 15, credit_percent: 10 } satisfies Terms,
      pace.expiringValidityMs,
    );
    // Nobody answers: the server's sweeper moves it to EXPIRED once valid_until has passed.
    await sleep(pace.expiringValidityMs + 1, stopped.signal);
    return { scenario: 'expiring', negotiationId: id };
  };

  const withdrawn = async (): Promise<ScenarioOutcome> => {
    const lab = party('lab', 'withdrawn');
    const broker = party('broker', 'withdrawn');
    const id = await lab.open(broker.did, { category: 'data-access', mine: 'internal', theirs: 'restricted' });
    await think('withdrawn');
    await lab.propose(
      id,
      { dataset: 'regional-air-quality-2025', access: 'read-only', months: 12, fee_eur: '1800.00' },
      pace.validityMs,
    );
    await think('withdrawn');
    await broker.propose(
      id,
      { dataset: 'regional-air-quality-2025', access: 'read-only', months: 6, fee_eur: '2400.00', audit: 'quarterly' },
      pace.validityMs,
    );
    await think('withdrawn');
    await lab.withdraw(id, 'Budget cut for this quarter; walking away without an agreement.');
    return { scenario: 'withdrawn', negotiationId: id };
  };

  const finished = (async () => {
    if (options.alreadyRan && (await options.alreadyRan(negotiationIdentity(options.seed, 'buyer', AGENTS.buyer).did)))
      return [];
    const results = await Promise.allSettled([pricing(), scheduling(), expiring(), withdrawn()]);
    const outcomes: ScenarioOutcome[] = [];
    for (const r of results) {
      if (r.status === 'fulfilled') outcomes.push(r.value);
      else if (!stopped.signal.aborted) onError(r.reason);
    }
    return outcomes;
  })();

  const responder = options.watch
    ? startNegotiationResponder({
        agents: (Object.keys(AGENTS) as AgentKey[]).map((k) => ({
          party: party(k, `answers/${k}/${options.now()}`),
          policy: AGENT_POLICIES[k],
        })),
        watch: options.watch,
        now: options.now,
        think: (signal) => sleep(randomInt(stream('answers/pace'), pace.stepMs[0], pace.stepMs[1]), signal),
        validityMs: pace.validityMs,
        onError,
      })
    : undefined;

  const guidedPricing = async (run: string, operator: DidKey): Promise<GuidedNegotiation> => {
    if (!responder) throw new Error('The guided negotiation needs the agents to answer (watch).');
    const seller = party('seller', `guided/${run}`);
    const id = await seller.open(operator, { category: 'pricing', mine: 'public', theirs: 'public' });
    await seller.propose(id, GUIDED_OPENING, pace.validityMs);
    return { negotiationId: id, names: { [seller.did]: AGENTS.seller } };
  };

  return {
    parties,
    finished,
    guidedPricing,
    async stop() {
      stopped.abort();
      await finished.catch(() => undefined);
      await responder?.stop();
    },
  };
}
