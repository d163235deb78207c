// The server-wide set of inbox items (InboxFeed): each source puts, replaces or removes its own
// items here, and listeners hear each real change in order. An item put again unchanged is no
// change, so a source that re-reads its facts on a timer emits nothing while nothing moved.
import type { InboxItem } from '@shared/contract/inbox';
import type { InboxChange, InboxFeed } from './inbox-feed';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

const same = (a: InboxItem, b: InboxItem) => JSON.stringify(a) === JSON.stringify(b);

export class InboxBoard implements InboxFeed {
  readonly #items = new Map<string, InboxItem>();
  /** Item id → the `since` an operator dismissed it at: that fact, or an older one, is not shown (§75). */
  readonly #dismissed = new Map<string, number>();
  readonly #listeners = new Set<(change: InboxChange) => void>();

  current(): readonly InboxItem[] {
    return [...this.#items.values()];
  }

  get(id: string): InboxItem | undefined {
    return this.#items.get(id);
  }

  subscribe(listener: (change: InboxChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  put(item: InboxItem): void {
    if (item.since <= (this.#dismissed.get(item.id) ?? -Infinity)) return this.remove(item.id);
    const before = this.#items.get(item.id);
    if (before && same(before, item)) return;
    this.#items.set(item.id, item);
    this.#emit(before ? { type: 'updated', item } : { type: 'added', item });
  }

  remove(id: string, settledBy: string | null = null): void {
    const item = this.#items.get(id);
    if (!item) return;
    this.#items.delete(id);
    this.#emit({ type: 'removed', item, settledBy });
  }

  /**
   * Makes the items whose id starts with `prefix` exactly `items` (a source that re-read all of
   * its facts for one scope, e.g. `review:ops:`): the others under the prefix are removed.
   */
  replace(prefix: string, items: readonly InboxItem[], settledBy: string | null = null): void {
    const keep = new Set(items.map((i) => i.id));
    for (const id of [...this.#items.keys()]) if (id.startsWith(prefix) && !keep.has(id)) this.remove(id, settledBy);
    for (const item of items) this.put(item);
  }

  /**
   * Hides the item as it is at `since` (decisions-server.md §75): removed now, settled by `by`,
   * and kept off until its source puts it with a later `since`.
   */
  dismiss(id: string, since: number, by: string | null = null): void {
    this.#dismissed.set(id, Math.max(since, this.#dismissed.get(id) ?? -Infinity));
    this.remove(id, by);
  }

  #emit(change: InboxChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        log.error({ err: error }, 'an inbox listener failed');
      }
    }
  }
}
