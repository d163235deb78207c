// Group commit on one SQLite connection (decisions-server.md §31). Writes submitted within one
// turn of the event loop run in submit order inside one IMMEDIATE transaction that is opened and
// committed in the same synchronous step (#flush), and each caller's promise resolves only after
// that COMMIT. A commit is most of what a history append costs (docs/benchmarks.md, "Gateway"),
// so sharing it is what lets the broker record every message before routing it at full speed.
//
// No transaction is ever left open across turns: another connection in the same process (the CLI
// run in-process by tests, a second store on the same file) never waits on a lock that only this
// thread could release.
//
// A piece must be database work and pure code only: if one piece throws, the whole group is
// rolled back (nothing of it was committed) and each piece runs again alone, so only the failing
// one fails. No savepoint per piece: they cost about a tenth of an append.
import type Database from 'better-sqlite3';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('store');

/**
 * Work a store adds to every transaction of the group commit: `beforeCommit` runs last inside it
 * (say, counters accumulated by the pieces), `afterRollback` forgets what a failed one accumulated.
 */
export interface CommitHooks {
  readonly beforeCommit: () => void;
  readonly afterRollback: () => void;
}

/** One group's COMMIT, as commit listeners hear it (the store's commit latency metric). */
export interface GroupCommitted {
  readonly seconds: number;
  readonly pieces: number;
}

interface Piece {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Enough to amortize a commit; small enough that a group's transaction stays short. */
const MAX_GROUP = 256;

export class SqliteGroupCommit {
  readonly #group: Database.Transaction<(pieces: readonly Piece[]) => unknown[]>;
  readonly #alone: Database.Transaction<(piece: Piece) => unknown>;
  #queue: Piece[] = [];
  readonly #hooks: CommitHooks[] = [];
  readonly #committed = new Set<(commit: GroupCommitted) => void>();

  constructor(db: Database.Database) {
    this.#group = db.transaction((pieces: readonly Piece[]) => this.#beforeCommit(pieces.map((piece) => piece.work())));
    this.#alone = db.transaction((piece: Piece) => this.#beforeCommit(piece.work()));
  }

  /** Hears each group's commit: how long its transaction took (monotonic clock) and how many writes it held. */
  onCommitted(listener: (commit: GroupCommitted) => void): () => void {
    this.#committed.add(listener);
    return () => this.#committed.delete(listener);
  }

  #tellCommitted(startedAt: number, pieces: number): void {
    const commit = { seconds: (performance.now() - startedAt) / 1000, pieces };
    for (const listener of [...this.#committed]) {
      try {
        listener(commit);
      } catch (error) {
        log.error({ err: error }, 'a commit listener failed');
      }
    }
  }

  addHooks(hooks: CommitHooks): void {
    this.#hooks.push(hooks);
  }

  #beforeCommit<T>(result: T): T {
    for (const hooks of this.#hooks) hooks.beforeCommit();
    return result;
  }

  #rolledBack(): void {
    for (const hooks of this.#hooks) hooks.afterRollback();
  }

  /** Runs `work` in the next group's transaction; resolves with its result once committed. */
  submit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.#queue.length === 1) setImmediate(() => this.flush());
      else if (this.#queue.length >= MAX_GROUP) this.flush();
    });
  }

  /** Commits what is queued now (also called before the connection closes). */
  flush(): void {
    const pieces = this.#queue;
    if (pieces.length === 0) return;
    this.#queue = [];
    let results: unknown[];
    const startedAt = performance.now();
    try {
      results = this.#group.immediate(pieces);
    } catch {
      this.#rolledBack();
      for (const piece of pieces) {
        try {
          piece.resolve(this.#alone.immediate(piece));
        } catch (error) {
          this.#rolledBack();
          piece.reject(error);
        }
      }
      return;
    }
    this.#tellCommitted(startedAt, pieces.length);
    pieces.forEach((piece, i) => piece.resolve(results[i]));
  }
}
