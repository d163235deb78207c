// The BFF's side of external relays: for every relay in the registry and every
// identity the console follows (its operators' DIDs and the watched ones), two long-polls of the
// relay's GET /events, one for envelopes to the identity and one for envelopes from it. Each poll
// resumes from its persisted cursor; a page and the cursor after it are stored in one transaction
// (so a restart of either side loses nothing and stores nothing twice); a failure marks the
// service down and the poll retries with exponential backoff. Envelopes are verified on arrival
// (bridge-verify.ts) and kept untrusted when they fail.
import { z } from 'zod';
import type { Clock } from '../clock';
import { DidVerifier } from '../crypto/node-verifier';
import type { Store } from '../store/store';
import type { ExternalService, NewBridgedEnvelope } from '../store/service-registry-store';
import { verifyBridged } from './bridge-verify';
import { ServiceFetcher } from './service-fetcher';
import { DEFAULT_BACKOFF, ServiceStatusBoard, type BackoffOptions } from './service-status';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('external');

export interface RelayBridgeOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly verifier?: DidVerifier;
  /** Who talks to the services (address policy, time and byte bounds); public addresses only by default. */
  readonly outbound?: ServiceFetcher;
  readonly backoff?: BackoffOptions;
  /** The long-poll's `timeout` in seconds (the relay waits up to this for an event). */
  readonly pollTimeoutS?: number;
  /** How often the set of services and followed identities is read again. */
  readonly reconcileMs?: number;
  /** How often a service without a long-poll (negotiation services, relays with nobody to follow) is probed while up. */
  readonly probeMs?: number;
}

const Page = z.object({
  ok: z.literal(true),
  events: z.array(z.unknown()),
  hasMore: z.boolean().optional(),
  cursor: z.string().min(1).max(64).optional(),
});

type Role = 'recipient' | 'sender';

interface Poller {
  readonly key: string;
  readonly abort: AbortController;
  readonly done: Promise<void>;
}

/** Waits `ms` or until `signal` aborts. The poller's signal lives as long as the poller: each
 * wait takes its listener off again, so a poll loop does not pile up one per turn. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export class RelayBridge {
  readonly status: ServiceStatusBoard;
  readonly outbound: ServiceFetcher;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #verifier: DidVerifier;
  readonly #backoff: BackoffOptions;
  readonly #pollTimeoutS: number;
  readonly #reconcileMs: number;
  readonly #probeMs: number;
  readonly #probedAt = new Map<string, number>();
  readonly #pollers = new Map<string, Poller>();
  readonly #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #reconciling: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(options: RelayBridgeOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#verifier = options.verifier ?? new DidVerifier();
    this.outbound = options.outbound ?? new ServiceFetcher();
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#pollTimeoutS = options.pollTimeoutS ?? 30;
    this.#reconcileMs = options.reconcileMs ?? 2_000;
    this.#probeMs = options.probeMs ?? 15_000;
    this.status = new ServiceStatusBoard(() => this.#clock.now());
  }

  start(): void {
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.#reconcileMs);
    this.#timer.unref();
  }

  /** Called when a page stored new envelopes (the console's views may refresh). */
  onStored(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts pollers for new services or identities and stops those no longer wanted. */
  refresh(): Promise<void> {
    this.#reconciling = this.#reconciling
      .then(() => this.#reconcile())
      .catch((error: unknown) => log.error({ err: error }, 'reconciling external relays failed'));
    return this.#reconciling;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#reconciling;
    const pollers = [...this.#pollers.values()];
    this.#pollers.clear();
    for (const p of pollers) p.abort.abort();
    await Promise.all(pollers.map((p) => p.done));
    await this.outbound.close();
  }

  async #reconcile(): Promise<void> {
    if (this.#stopped) return;
    const all = await this.#store.services.listServices();
    const services = all.filter((s) => s.kind === 'relay');
    const operators = (await this.#store.access.listOperators()).map((o) => o.did);
    const followed = [...new Set([...operators, ...(await this.#store.services.listWatched())])];
    const wanted = new Map<string, { service: ExternalService; role: Role; did: string }>();
    for (const service of services) {
      for (const did of followed) {
        for (const role of ['recipient', 'sender'] as const) {
          // The base URL is part of the key: editing it restarts the poll against the new address.
          wanted.set(`${service.id} ${service.baseUrl} ${role}:${did}`, { service, role, did });
        }
      }
    }
    for (const [key, poller] of this.#pollers) {
      if (!wanted.has(key)) {
        poller.abort.abort();
        this.#pollers.delete(key);
      }
    }
    for (const [key, { service, role, did }] of wanted) {
      if (this.#pollers.has(key) || this.#stopped) continue;
      const abort = new AbortController();
      const done = this.#poll(service, role, did, abort.signal);
      this.#pollers.set(key, { key, abort, done });
    }
    const polled = new Set([...wanted.values()].map((w) => w.service.id));
    for (const id of this.#probedAt.keys()) {
      if (all.some((s) => s.id === id)) continue;
      this.#probedAt.delete(id);
      this.status.forget(id);
    }
    await Promise.all(all.filter((s) => !polled.has(s.id)).map((s) => this.#probeIfDue(s)));
  }

  /** A cheap GET (relay: /health, negotiation service: /oap/manifest) when its turn has come. */
  async #probeIfDue(service: ExternalService): Promise<void> {
    const now = this.#clock.now();
    const status = this.status.get(service.id);
    const due =
      status.state === 'down'
        ? (status.nextRetryAt ?? 0) <= now
        : now - (this.#probedAt.get(service.id) ?? -Infinity) >= this.#probeMs;
    if (!due) return;
    this.#probedAt.set(service.id, now);
    await this.check(service);
  }

  /** Probes one service now and records the outcome (also used after the screen adds one). */
  async check(service: ExternalService): Promise<void> {
    const path = service.kind === 'relay' ? '/health' : '/oap/manifest';
    try {
      const { status } = await this.outbound.request(service, path, { timeoutMs: 10_000, readBody: false });
      if (status < 200 || status > 299) throw new Error(`GET ${path} answered ${status}`);
      this.status.ok(service.id);
    } catch (error) {
      this.reportFailure(service.id, error);
    }
  }

  /** A failed request to the service by anyone (a probe, the proxy): it is down, retry later. */
  reportFailure(serviceId: string, error: unknown): void {
    this.status.failed(serviceId, describe(error), this.status.get(serviceId).failures + 1, this.#backoff);
  }

  async #poll(service: ExternalService, role: Role, did: string, signal: AbortSignal): Promise<void> {
    const feed = `${role}:${did}`;
    let failures = 0;
    while (!signal.aborted) {
      try {
        const stored = await this.#pollOnce(service, feed, role, did, signal);
        failures = 0;
        this.status.ok(service.id);
        if (stored > 0) for (const listener of this.#listeners) listener();
      } catch (error) {
        if (signal.aborted) break;
        failures += 1;
        const delay = this.status.failed(service.id, describe(error), failures, this.#backoff);
        await sleep(delay, signal);
      }
    }
  }

  /** One long-poll and its page, stored with the cursor after it; returns how many were new. */
  async #pollOnce(
    service: ExternalService,
    feed: string,
    role: Role,
    did: string,
    signal: AbortSignal,
  ): Promise<number> {
    const since = (await this.#store.services.getCursor(service.id, feed)) ?? 'cur_0';
    const query = new URLSearchParams({ since, [role]: did, timeout: String(this.#pollTimeoutS), limit: '100' });
    // A connection that hangs past the poll's own wait counts as down, not as waiting for ever.
    const hungMs = (this.#pollTimeoutS + 15) * 1000;
    const res = await this.outbound.request(service, `/events?${query}`, { signal, timeoutMs: hungMs });
    if (res.status < 200 || res.status > 299) throw new Error(`GET /events answered ${res.status}`);
    const page = Page.safeParse(res.body);
    if (!page.success) throw new Error('GET /events answered something that is not an Agora page');
    const envelopes: NewBridgedEnvelope[] = [];
    const seenHere = new Set<string>();
    for (const raw of page.data.events) {
      const verdict = await verifyBridged(raw, {
        now: this.#clock.now(),
        verifier: this.#verifier,
        knownDigest: (id) => this.#store.services.findBridgedDigest(service.id, id),
      });
      if (verdict.kind === 'store' && !seenHere.has(verdict.envelope.envelopeId)) {
        seenHere.add(verdict.envelope.envelopeId);
        envelopes.push(verdict.envelope);
      }
    }
    // A relay without the cursor extension (decisions-agora.md §21): resume from the last event's
    // ts, as the spec's loop does; the store's unique id drops what a relay that reads it
    // inclusively sends again.
    const lastTs = [...page.data.events]
      .reverse()
      .map((e) => (e as { ts?: unknown } | null)?.ts)
      .find((ts): ts is string => typeof ts === 'string');
    const cursor = page.data.cursor ?? lastTs ?? since;
    const { stored } = await this.#store.services.appendBridgedPage({
      serviceId: service.id,
      feed,
      envelopes,
      cursor,
      at: this.#clock.now(),
    });
    return stored;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ? `${error.message} (${cause.code})` : error.message;
  }
  return String(error);
}
