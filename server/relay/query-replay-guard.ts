// Signed directory queries are answered once (decisions-agora.md §39). A query is only read, never
// stored, so the relay's store-backed replay check cannot see it again; this remembers each
// (signer, message id) in memory for as long as its ts can pass the ±5 minute window, and a
// query signed before this process started is refused, since a predecessor may have answered it.
import { ok } from '@shared/errors';
import type { Result } from '@shared/errors';
import { agoraFail } from '@shared/agora/reject-reasons';
import type { AgoraError } from '@shared/agora/reject-reasons';
import { ReplayMemory } from '@shared/agora/replay-memory';

export interface QueryReplayGuardOptions {
  /** When this process started answering (epoch ms): older queries are not trusted as fresh. */
  readonly startedAt: number;
  /** Live ids remembered at most; full, it refuses (replay_memory_full) rather than forget. */
  readonly capacity?: number;
}

export class QueryReplayGuard {
  readonly #startedAt: number;
  readonly #memory: ReplayMemory;

  constructor(options: QueryReplayGuardOptions) {
    this.#startedAt = options.startedAt;
    this.#memory = new ReplayMemory(options.capacity === undefined ? {} : { capacity: options.capacity });
  }

  get size(): number {
    return this.#memory.size;
  }

  /** Admits a verified query (its ts already inside the window) the first time only. */
  admit(signer: string, id: string, ts: number, now: number): Result<void, AgoraError> {
    if (ts < this.#startedAt) {
      return agoraFail(
        'query_replayed',
        'This query was signed before the relay started and may have been answered; sign a fresh one.',
        { id },
      );
    }
    const remembered = this.#memory.remember(`${signer}\n${id}`, '', now);
    if (!remembered.ok) return remembered;
    if (remembered.value === 'duplicate')
      return agoraFail('query_replayed', `Query ${id} was already answered; sign a fresh one.`, { id });
    return ok(undefined);
  }
}
