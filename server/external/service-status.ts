// Reachability of each external service as the bridge last saw it ("a service
// that is down shows as down", decisions-agora.md §33). In memory: it is about this process's view of the network.
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('external');

export type ReachState = 'connecting' | 'up' | 'down';

export interface ServiceStatus {
  readonly state: ReachState;
  /** Epoch ms of the last change of state. */
  readonly since: number;
  readonly lastOkAt: number | null;
  readonly lastError: string | null;
  /** Failed attempts in a row (the backoff's exponent). */
  readonly failures: number;
  readonly nextRetryAt: number | null;
}

export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 60_000 };

/** initial × 2^(failures − 1), capped: 1 s, 2 s, 4 s … 60 s by default. */
export function backoffDelay(failures: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  if (failures <= 0) return 0;
  return Math.min(options.maxMs, options.initialMs * 2 ** Math.min(failures - 1, 30));
}

export class ServiceStatusBoard {
  readonly #statuses = new Map<string, ServiceStatus>();
  readonly #changed = new Set<(serviceId: string, status: ServiceStatus | undefined) => void>();
  constructor(private readonly now: () => number) {}

  /** Hears each change of a service's state (not every retry); `undefined` once it is forgotten. */
  onChange(listener: (serviceId: string, status: ServiceStatus | undefined) => void): () => void {
    this.#changed.add(listener);
    return () => this.#changed.delete(listener);
  }

  /** Every service this board has seen, with its status. */
  entries(): [string, ServiceStatus][] {
    return [...this.#statuses.entries()];
  }

  #set(serviceId: string, before: ServiceStatus, status: ServiceStatus): void {
    this.#statuses.set(serviceId, status);
    if (before.state === status.state) return;
    for (const listener of [...this.#changed]) {
      try {
        listener(serviceId, status);
      } catch (error) {
        log.error({ err: error }, 'a service status listener failed');
      }
    }
  }

  get(serviceId: string): ServiceStatus {
    return (
      this.#statuses.get(serviceId) ?? {
        state: 'connecting',
        since: this.now(),
        lastOkAt: null,
        lastError: null,
        failures: 0,
        nextRetryAt: null,
      }
    );
  }

  ok(serviceId: string): void {
    const before = this.get(serviceId);
    const now = this.now();
    this.#set(serviceId, before, {
      state: 'up',
      since: before.state === 'up' ? before.since : now,
      lastOkAt: now,
      lastError: null,
      failures: 0,
      nextRetryAt: null,
    });
  }

  /**
   * Records the `failures`-th failure in a row of one poller of the service (each poller backs
   * off on its own count); returns how long that poller waits before its next attempt.
   */
  failed(serviceId: string, error: string, failures: number, backoff: BackoffOptions): number {
    const before = this.get(serviceId);
    const now = this.now();
    const delay = backoffDelay(failures, backoff);
    this.#set(serviceId, before, {
      state: 'down',
      since: before.state === 'down' ? before.since : now,
      lastOkAt: before.lastOkAt,
      lastError: error,
      failures,
      nextRetryAt: now + delay,
    });
    return delay;
  }

  forget(serviceId: string): void {
    if (!this.#statuses.delete(serviceId)) return;
    for (const listener of [...this.#changed]) listener(serviceId, undefined);
  }
}
