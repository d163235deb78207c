// Agora v1.0 "Replay Attack Prevention" 2-3: track processed message ids for at least
// 10 minutes; the id is the nonce. We keep a digest per id so a caller can tell a re-post of
// the same signed envelope (idempotent) from a different envelope reusing the id (refused).
// Time is always passed in, never read; the structure is bounded.
import { ok } from '../errors';
import type { Result } from '../errors';
import { agoraFail } from './reject-reasons';
import type { AgoraError } from './reject-reasons';

/**
 * 10 minutes: a timestamp is accepted while it is within ±5 minutes of now, so an id first
 * seen at the earliest moment (ts − 5 min) can be replayed until the latest (ts + 5 min).
 */
export const REPLAY_RETENTION_MS = 10 * 60_000;
export const DEFAULT_REPLAY_CAPACITY = 100_000;

/** What checkIncoming needs: a read-only lookup, so a shared store (SQL) can implement it too. */
export interface ReplayView {
  /** The digest remembered for `id`, or undefined when unknown or older than the retention. */
  lookup(id: string, now: number): string | undefined;
}

export type RememberOutcome = 'remembered' | 'duplicate';

interface Entry {
  readonly digest: string;
  readonly seenAt: number;
}

export interface ReplayMemoryOptions {
  readonly retentionMs?: number;
  readonly capacity?: number;
}

export class ReplayMemory implements ReplayView {
  readonly retentionMs: number;
  readonly capacity: number;
  // Map keeps insertion order, which is time order while the injected clock does not go back.
  readonly #entries = new Map<string, Entry>();

  constructor(options: ReplayMemoryOptions = {}) {
    const { retentionMs = REPLAY_RETENTION_MS, capacity = DEFAULT_REPLAY_CAPACITY } = options;
    if (!Number.isFinite(retentionMs) || retentionMs < REPLAY_RETENTION_MS) {
      throw new RangeError(`retentionMs must be at least ${REPLAY_RETENTION_MS} (Agora: at least 10 minutes)`);
    }
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.retentionMs = retentionMs;
    this.capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  lookup(id: string, now: number): string | undefined {
    const entry = this.#entries.get(id);
    return entry !== undefined && this.#live(entry, now) ? entry.digest : undefined;
  }

  has(id: string, now: number): boolean {
    return this.lookup(id, now) !== undefined;
  }

  /**
   * Records that `id` was accepted with `digest`. The same digest again is `duplicate`; a
   * different digest is `id_conflict`. When full of live ids it refuses (`replay_memory_full`)
   * rather than forget one early: failing closed keeps the "at least 10 minutes" promise.
   */
  remember(id: string, digest: string, now: number): Result<RememberOutcome, AgoraError> {
    assertTime(now);
    this.prune(now);
    const known = this.lookup(id, now);
    if (known === digest) return ok('duplicate');
    if (known !== undefined)
      return agoraFail('id_conflict', `Message id ${id} was already used for a different envelope.`, { id });
    this.#entries.delete(id); // an expired entry, if any, so re-insertion moves it to the end
    if (this.#entries.size >= this.capacity && this.prune(now, true) === 0) {
      return agoraFail('replay_memory_full', 'Too many recent messages; try again shortly.', {
        capacity: this.capacity,
      });
    }
    this.#entries.set(id, { digest, seenAt: now });
    return ok('remembered');
  }

  /**
   * Drops expired ids and returns how many. By default it stops at the first live entry
   * (amortised O(1)); `full` scans everything, for when the clock went back or the map is full.
   */
  prune(now: number, full = false): number {
    assertTime(now);
    let removed = 0;
    for (const [id, entry] of this.#entries) {
      if (this.#live(entry, now)) {
        if (full) continue;
        break;
      }
      this.#entries.delete(id);
      removed++;
    }
    return removed;
  }

  #live(entry: Entry, now: number): boolean {
    return now - entry.seenAt <= this.retentionMs;
  }
}

function assertTime(now: number): void {
  if (typeof now !== 'number' || !Number.isFinite(now))
    throw new TypeError('now must be a finite number of milliseconds');
}
