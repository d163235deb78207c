// Group commit for the writers that hand out commit-ordered numbers (decisions-server.md §14).
// Such a transaction holds its counter row to COMMIT, so transactions taking it run one after
// another across every instance, and each would pay a full commit (a WAL flush) alone. Work
// submitted while one transaction runs is queued and runs in the next, in call order, all in one
// transaction: the counter is locked first (so every batch takes its locks in the same order and
// none can deadlock), one COMMIT for all. A failing piece must not take the others down: each
// piece runs in its own SAVEPOINT, undone alone; except in a batch of replayable pieces (database
// work and pure callbacks only), which skips the savepoints (two round trips a piece): when one
// of them fails, the transaction is rolled back, that piece alone is refused, and the others run
// again in the next one.
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './pg-pool';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('store');

/**
 * Thrown by a piece that fails before writing anything (say a callback of its own threw): the
 * piece is refused with `cause`, and the transaction goes on for the others, savepoint or not.
 */
export class NothingWritten extends Error {
  constructor(override readonly cause: unknown) {
    super('the piece failed before writing');
  }
}

/** A piece of a batch without savepoints threw: the transaction is rolled back, never committed. */
class PieceFailed extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super('a piece of the batch failed');
  }
}

/** What a commit listener hears (Store.onCommit). */
export type CommitListener = (commit: { readonly seconds: number; readonly pieces: number }) => void;

interface Job<R> {
  readonly work: (client: PoolClient) => Promise<R>;
  readonly replayable: boolean;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitOptions<R> {
  /** The statement that takes the serialising lock, run first in every batch. */
  readonly lock: string;
  /** Runs after the last piece, inside the transaction, with what succeeded (e.g. a NOTIFY). */
  readonly beforeCommit?: (client: PoolClient, results: readonly R[]) => Promise<void>;
  /** At most this many pieces share one transaction (default 256). */
  readonly maxBatch?: number;
  /** Told after each committed batch: its transaction's duration in seconds (monotonic clock) and size. */
  readonly onCommitted?: CommitListener;
}

export class GroupCommit<R> {
  readonly #pool: Pool;
  readonly #options: GroupCommitOptions<R>;
  #queue: Job<R>[] = [];
  #running = false;

  constructor(pool: Pool, options: GroupCommitOptions<R>) {
    this.#pool = pool;
    this.#options = options;
  }

  /**
   * `replayable`: running the piece again after a rolled-back attempt is invisible: it only talks
   * to the database, or its callbacks are pure.
   */
  submit<T extends R>(
    work: (client: PoolClient) => Promise<T>,
    options: { readonly replayable?: boolean } = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        work,
        replayable: options.replayable ?? false,
        resolve: resolve as (result: R) => void,
        reject,
      });
      // The first piece waits one turn of the event loop, so pieces submitted together share it.
      if (this.#queue.length === 1 && !this.#running) setImmediate(() => void this.#run());
    });
  }

  /** One batch at a time; never rejects (each piece's promise carries its own outcome). */
  async #run(): Promise<void> {
    if (this.#running || this.#queue.length === 0) return;
    this.#running = true;
    const batch = this.#queue.splice(0, this.#options.maxBatch ?? 256);
    const replayable = batch.length > 1 && batch.every((job) => job.replayable);
    try {
      const startedAt = performance.now();
      const results = await this.#transaction(batch, !replayable && batch.length > 1);
      this.#tellCommitted(startedAt, batch.length);
      this.#settle(batch, results);
    } catch (error) {
      if (replayable && error instanceof PieceFailed) {
        // One piece failed before COMMIT was sent, so nothing committed: it alone is refused, and
        // the others go back to the head of the queue, in call order, for the next transaction.
        batch[error.index]!.reject(error.cause);
        this.#queue.unshift(...batch.filter((_, i) => i !== error.index));
      } else {
        const reason = error instanceof PieceFailed ? error.cause : error;
        for (const job of batch) job.reject(reason);
      }
    } finally {
      this.#running = false;
      if (this.#queue.length > 0) void this.#run();
    }
  }

  #tellCommitted(startedAt: number, pieces: number): void {
    try {
      this.#options.onCommitted?.({ seconds: (performance.now() - startedAt) / 1000, pieces });
    } catch (error) {
      log.error({ err: error }, 'a commit listener failed');
    }
  }

  /** The batch in one transaction; `isolate`: each piece in a SAVEPOINT. Rejects when the transaction fails. */
  async #transaction(
    batch: readonly Job<R>[],
    isolate: boolean,
  ): Promise<({ ok: true; value: R } | { ok: false; error: unknown })[]> {
    return inTransaction(this.#pool, async (client) => {
      await client.query(this.#options.lock);
      const results: ({ ok: true; value: R } | { ok: false; error: unknown })[] = [];
      for (const job of batch) {
        if (isolate) await client.query('SAVEPOINT piece');
        try {
          const value = await job.work(client);
          if (isolate) await client.query('RELEASE SAVEPOINT piece');
          results.push({ ok: true, value });
        } catch (error) {
          if (error instanceof NothingWritten) {
            if (isolate) await client.query('RELEASE SAVEPOINT piece');
            results.push({ ok: false, error: error.cause });
            continue;
          }
          // Without a savepoint the piece's failure is the transaction's.
          if (!isolate) throw new PieceFailed(results.length, error);
          await client.query('ROLLBACK TO SAVEPOINT piece');
          results.push({ ok: false, error });
        }
      }
      const succeeded = results.flatMap((r) => (r.ok ? [r.value] : []));
      if (this.#options.beforeCommit && succeeded.length > 0) await this.#options.beforeCommit(client, succeeded);
      return results;
    });
  }

  #settle(
    batch: readonly Job<R>[],
    outcomes: readonly ({ ok: true; value: R } | { ok: false; error: unknown })[],
  ): void {
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
