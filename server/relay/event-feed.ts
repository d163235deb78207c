// Wakes long-polls (Agora "Long Polling Behavior" 2: "New event arrives (return immediately)").
// Every envelope this process stores passes through `publish`; waiters are matched in memory
// against a contiguous window of recent envelopes, so a POST answers a thousand waiters without
// a thousand queries. Whatever the window cannot vouch for (a gap in seq, written by another
// server instance sharing the database) makes the waiter re-read the store instead: the store
// stays the truth, the window is only a shortcut.
import type { StoredRelayEnvelope } from '../store/relay-store';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('relay');

export interface FeedFilter {
  readonly recipient?: string;
  readonly sender?: string;
  readonly type?: string;
  readonly threadId?: string;
  /** The spec's timestamp `since` ("receive events after this time"): only envelopes whose own ts > afterTs. */
  readonly afterTs?: number;
}

/** What a wait ends with: matching events, a timeout, or "read the store again". */
export type WaitOutcome =
  | { readonly kind: 'events'; readonly events: readonly StoredRelayEnvelope[]; readonly hasMore: boolean }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'refetch' };

interface Waiter {
  /** The seq the waiter's store read covered: only envelopes after it are news to it. */
  readonly afterSeq: number;
  readonly filter: FeedFilter;
  readonly limit: number;
  readonly settle: (outcome: WaitOutcome) => void;
}

export const matchesFilter = (e: StoredRelayEnvelope, f: FeedFilter, now: number): boolean =>
  e.kind === 'event' &&
  e.expiresAt >= now &&
  (f.recipient === undefined || e.recipient === f.recipient) &&
  (f.sender === undefined || e.sender === f.sender) &&
  (f.type === undefined || e.type === f.type) &&
  (f.threadId === undefined || e.threadId === f.threadId) &&
  (f.afterTs === undefined || e.ts > f.afterTs);

export interface EventFeedOptions {
  readonly now: () => number;
  /** The store's highest seq when the feed starts. */
  readonly headSeq: number;
  /** How many recent envelopes to keep for late registrations (default 4096). */
  readonly window?: number;
}

export class EventFeed {
  readonly #now: () => number;
  readonly #windowSize: number;
  readonly #waiters = new Set<Waiter>();
  /** Consecutive seqs ending at #lastSeq; #window[0].seq is the first seq it can vouch for. */
  #window: StoredRelayEnvelope[] = [];
  #lastSeq: number;
  #coveredFrom: number;
  readonly #stored = new Set<() => void>();
  readonly #woken = new Set<(latencyMs: number) => void>();

  constructor(options: EventFeedOptions) {
    this.#now = options.now;
    this.#windowSize = options.window ?? 4096;
    this.#lastSeq = options.headSeq;
    this.#coveredFrom = options.headSeq + 1;
  }

  get waiting(): number {
    return this.#waiters.size;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Whether a long-poll for `recipient` is waiting in this process (directory presence). */
  isListening(recipient: string): boolean {
    for (const waiter of this.#waiters) if (waiter.filter.recipient === recipient) return true;
    return false;
  }

  /**
   * Hears that envelopes were stored: by this process, or by another instance once its head is
   * noticed. Read models catch up from the store on it (the inbox's scheduling items).
   */
  onStored(listener: () => void): () => void {
    this.#stored.add(listener);
    return () => this.#stored.delete(listener);
  }

  /**
   * Hears each waiter an envelope this process stored wakes, with the time from the envelope's
   * storing (its receivedAt) to the wake-up, on the feed's clock.
   */
  onWoken(listener: (latencyMs: number) => void): () => void {
    this.#woken.add(listener);
    return () => this.#woken.delete(listener);
  }

  #tellStored(): void {
    for (const listener of [...this.#stored]) {
      try {
        listener();
      } catch (error) {
        log.error({ err: error }, 'an event feed listener failed');
      }
    }
  }

  /** Every envelope this process stored, registrations included (they take a seq too). */
  publish(envelope: StoredRelayEnvelope): void {
    this.#tellStored();
    if (envelope.seq <= this.#lastSeq) return;
    if (envelope.seq !== this.#lastSeq + 1) {
      // A gap: another instance wrote in between. Waiters could have missed those; they re-read.
      this.#window = [];
      this.#coveredFrom = envelope.seq;
      this.#lastSeq = envelope.seq;
      this.#window.push(envelope);
      this.#settleAll({ kind: 'refetch' });
      return;
    }
    this.#lastSeq = envelope.seq;
    this.#window.push(envelope);
    // Trimmed by half a window at a time, so a publish costs O(1) amortised.
    if (this.#window.length >= 2 * this.#windowSize) {
      this.#window = this.#window.slice(-this.#windowSize);
      this.#coveredFrom = this.#window[0]!.seq;
    }
    if (envelope.kind !== 'event') return;
    const now = this.#now();
    let woken = 0;
    for (const waiter of this.#waiters) {
      if (envelope.seq > waiter.afterSeq && matchesFilter(envelope, waiter.filter, now)) {
        waiter.settle({ kind: 'events', events: [envelope], hasMore: false });
        woken += 1;
      }
    }
    if (woken > 0 && this.#woken.size > 0) {
      const latencyMs = Math.max(0, this.#now() - envelope.receivedAt);
      for (const listener of [...this.#woken]) for (let i = 0; i < woken; i += 1) listener(latencyMs);
    }
  }

  /**
   * A non-event envelope this process stored (a registration) took seq `seq`: the window moves
   * on without a gap when nothing else was written in between.
   */
  noticeOwn(seq: number): void {
    if (seq === this.#lastSeq + 1) {
      this.#lastSeq = seq;
      return;
    }
    this.noticeHead(seq);
  }

  /** The store's head, as the store itself reported it, moved past what this process published (another instance wrote). */
  noticeHead(headSeq: number): void {
    if (headSeq <= this.#lastSeq) return;
    this.#tellStored();
    this.#window = [];
    this.#lastSeq = headSeq;
    this.#coveredFrom = headSeq + 1;
    this.#settleAll({ kind: 'refetch' });
  }

  /**
   * Waits for an event after `afterSeq` that matches `filter`, for at most `timeoutMs` or until
   * `signal` aborts (the client left). `afterSeq` is a head the caller's own store read covered.
   * It never moves the feed (decisions-agora.md §36): a head beyond what this process published
   * (a fresh start, another instance, or a commit whose publish has not run yet) only means the
   * waiter takes envelopes past it; a gap the feed cannot vouch for still sends it to the store.
   */
  wait(
    afterSeq: number,
    filter: FeedFilter,
    limit: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WaitOutcome> {
    if (afterSeq < this.#lastSeq) {
      // Envelopes arrived between the caller's read and now: answer from the window if it can.
      if (afterSeq + 1 < this.#coveredFrom) return Promise.resolve({ kind: 'refetch' });
      const now = this.#now();
      const matching = this.#window.filter((e) => e.seq > afterSeq && matchesFilter(e, filter, now));
      if (matching.length > 0) {
        return Promise.resolve({ kind: 'events', events: matching.slice(0, limit), hasMore: matching.length > limit });
      }
    }
    if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve({ kind: 'timeout' });
    return new Promise<WaitOutcome>((resolve) => {
      const finish = (outcome: WaitOutcome) => {
        if (!this.#waiters.delete(waiter)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const waiter: Waiter = { afterSeq, filter, limit, settle: finish };
      const onAbort = () => finish({ kind: 'timeout' });
      const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  /** Ends every wait now (shutdown): each answers as a timeout. */
  close(): void {
    this.#settleAll({ kind: 'timeout' });
  }

  #settleAll(outcome: WaitOutcome): void {
    for (const waiter of [...this.#waiters]) waiter.settle(outcome);
  }
}
