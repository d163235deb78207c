// The console's OACoP read models, built by consuming the relay's stored
// envelopes in seq order: the envelopes are the source events, so nothing else is stored and a
// restart (or another instance on the same database) rebuilds the same view. Each read first
// catches up from the store, so an answer includes every envelope committed before it.
import { isOacopCarrier, readCarrier } from '@shared/oacop/carrier';
import { SchedulingProjection, type CarrierEvent } from '@shared/oacop/scheduling-projection';
import { TaskProjection } from '@shared/oacop/task-projection';
import type { RelayStore, StoredRelayEnvelope } from '../store/relay-store';

const PAGE = 500;

export class OacopReadModels {
  readonly scheduling = new SchedulingProjection();
  readonly tasks = new TaskProjection();
  #afterSeq = 0;
  #running: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<(threadIds: ReadonlySet<string>) => void>();

  /**
   * Hears, after each page a catch-up applied, the threads its carriers touched: a consumer then
   * looks at those threads only, never at all of them (decisions-server.md §76).
   */
  onThreadsChanged(listener: (threadIds: ReadonlySet<string>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  constructor(private readonly store: RelayStore) {}

  /** Applies every carrier stored since the last catch-up; concurrent calls share one pass. */
  catchUp(): Promise<void> {
    this.#running = this.#running.then(() => this.#catchUp());
    return this.#running;
  }

  async #catchUp(): Promise<void> {
    for (;;) {
      const page = await this.store.listEvents({ afterSeq: this.#afterSeq, type: 'REQUEST', limit: PAGE });
      const touched = new Set<string>();
      for (const stored of page.events) {
        const threadId = this.#apply(stored);
        if (threadId !== undefined) touched.add(threadId);
      }
      if (page.events.length > 0) this.#afterSeq = page.events[page.events.length - 1]!.seq;
      if (touched.size > 0) for (const listener of [...this.#listeners]) listener(touched);
      if (!page.hasMore) return;
    }
  }

  /** The thread the carrier belongs to, once applied; undefined when it is not one. */
  #apply(stored: StoredRelayEnvelope): string | undefined {
    const envelope = JSON.parse(stored.json) as { type: string; payload: unknown };
    if (!isOacopCarrier(envelope)) return undefined;
    // The relay refused malformed carriers; one stored by an older release is skipped, not fatal.
    const read = readCarrier(envelope);
    if (!read.ok) return undefined;
    const event: CarrierEvent = {
      seq: stored.seq,
      envelopeId: stored.id,
      from: stored.sender,
      to: stored.recipient ?? undefined,
      receivedAt: stored.receivedAt,
      message: read.value,
    };
    this.scheduling.apply(event);
    this.tasks.apply(event);
    return read.value.threadId;
  }
}
