// Sends the outbox (webhook-store.ts): leases due rows, POSTs each (webhook-sender.ts), marks 2xx
// delivered and anything else pending again after an exponential backoff with jitter, failed once
// the schedule is used up (about a day). At most `concurrency` sends at once per instance; rows are
// leased for longer than a send may take, so neither a second instance nor this one after a
// restart sends a row while another holds it. Delivery is at least once (decisions-server.md,
// "Webhooks"): a send whose answer is lost to a crash is sent again under the same delivery id.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { LeasedDelivery, WebhookStore } from '../store/webhook-store';
import type { Outgoing, SendResult } from './webhook-sender';

/** After the n-th failed attempt the next waits DEFAULT_RETRY_DELAYS_MS[n-1]; after the last, the row fails. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
];

export interface WebhookDispatcherOptions {
  readonly store: WebhookStore;
  readonly clock: Clock;
  readonly sender: {
    readonly timeoutMs: number;
    send(delivery: Outgoing, nowSeconds: number, signal?: AbortSignal): Promise<SendResult>;
  };
  /** Which endpoints are the administrator's (WEBHOOKS): their addresses are not checked. */
  readonly trusted?: (endpointId: string) => boolean;
  readonly retryDelaysMs?: readonly number[];
  readonly concurrency?: number;
  /** The longest wait between two looks at the outbox when idle (rows enqueued by other instances). */
  readonly pollMs?: number;
  /** In [0, 1): the jitter's source (tests may seed it). */
  readonly random?: () => number;
  /** Told each attempt's outcome once settled: delivered, pending again (retry) or failed for good. */
  readonly onAttempt?: (outcome: 'delivered' | 'retry' | 'failed') => void;
  /** Told about a failure of the store itself (logged by the runtime); the loop goes on. */
  readonly onError?: (error: unknown) => void;
}

/** When a row that failed its `attempts`-th attempt is tried next, or undefined: it has failed for good. */
export function nextAttemptAt(
  attempts: number,
  now: number,
  delays: readonly number[],
  random: () => number,
): number | undefined {
  const delay = delays[attempts - 1];
  if (delay === undefined) return undefined;
  // ±20 %: endpoints that failed together do not all come back in the same second.
  return now + Math.round(delay * (0.8 + 0.4 * random()));
}

export class WebhookDispatcher {
  readonly #o: Required<Omit<WebhookDispatcherOptions, 'onError' | 'onAttempt'>> &
    Pick<WebhookDispatcherOptions, 'onError' | 'onAttempt'>;
  readonly #inflight = new Set<Promise<void>>();
  readonly #stopping = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #again = false;
  #started = false;

  constructor(options: WebhookDispatcherOptions) {
    this.#o = {
      trusted: () => false,
      retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
      concurrency: 4,
      pollMs: 1_000,
      random: Math.random,
      ...options,
    };
    if (!(this.#o.concurrency >= 1)) throw new RangeError('concurrency must be ≥ 1');
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.wake();
  }

  /** Looks at the outbox now (an event was just enqueued here). */
  wake(): void {
    if (!this.#started || this.#stopping.signal.aborted) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), 0);
  }

  /** Stops leasing; sends in flight are cut short and recorded as attempts to try again at once. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    clearTimeout(this.#timer);
    while (this.#inflight.size > 0 || this.#ticking) {
      await Promise.allSettled([...this.#inflight]);
      if (this.#ticking) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async #tick(): Promise<void> {
    if (this.#stopping.signal.aborted) return;
    this.#ticking = true;
    this.#again = false;
    let wait = this.#o.pollMs;
    try {
      const free = this.#o.concurrency - this.#inflight.size;
      if (free > 0) {
        const now = this.#o.clock.now();
        const lease = `lease_${randomUUID()}`;
        // Longer than a send may take (its timeout) with room for the claim and the settle around it.
        const leaseUntil = now + 2 * this.#o.sender.timeoutMs + 1_000;
        const rows = await this.#o.store.claimDue(now, leaseUntil, free, lease);
        for (const row of rows) this.#track(this.#deliver(row));
        if (rows.length === free) wait = 0;
      }
      if (wait > 0) {
        const due = await this.#o.store.nextDue();
        if (due !== undefined) wait = Math.max(0, Math.min(wait, due - this.#o.clock.now()));
      }
    } catch (error) {
      this.#o.onError?.(error);
    } finally {
      this.#ticking = false;
    }
    if (this.#stopping.signal.aborted) return;
    // With every slot busy the next look waits for a send to end (#track wakes it).
    if (this.#inflight.size >= this.#o.concurrency) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), this.#again ? 0 : wait);
  }

  #track(sending: Promise<void>): void {
    const done = sending
      .catch((error: unknown) => this.#o.onError?.(error))
      .finally(() => {
        this.#inflight.delete(done);
        this.wake();
      });
    this.#inflight.add(done);
  }

  async #deliver(row: LeasedDelivery): Promise<void> {
    const result = await this.#o.sender.send(
      {
        id: row.id,
        eventType: row.eventType,
        url: row.url,
        secret: row.secret,
        payload: row.payload,
        trusted: this.#o.trusted(row.endpointId),
      },
      Math.floor(this.#o.clock.now() / 1000),
      this.#stopping.signal,
    );
    const at = this.#o.clock.now();
    const attempts = row.attempts + 1;
    if (result.ok) {
      await this.#o.store.settle(row.id, row.lease, { state: 'delivered', status: result.status!, at });
      this.#o.onAttempt?.('delivered');
      return;
    }
    const error = result.error ?? 'failed';
    const next = this.#stopping.signal.aborted
      ? at
      : nextAttemptAt(attempts, at, this.#o.retryDelaysMs, this.#o.random);
    await this.#o.store.settle(
      row.id,
      row.lease,
      next === undefined
        ? { state: 'failed', status: result.status, error, at }
        : { state: 'pending', status: result.status, error, at, nextAttemptAt: next },
    );
    this.#o.onAttempt?.(next === undefined ? 'failed' : 'retry');
  }
}
