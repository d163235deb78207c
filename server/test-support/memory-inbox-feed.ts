// An InboxFeed held in memory and pushed to by hand: the inbox as webhook tests drive it (a small
// real implementation of the interface, standing in for the inbox that builds items from rooms).
import type { InboxItem } from '@shared/contract/inbox';
import type { InboxChange, InboxFeed } from '../inbox/inbox-feed';

export class MemoryInboxFeed implements InboxFeed {
  readonly #items = new Map<string, InboxItem>();
  readonly #listeners = new Set<(change: InboxChange) => void>();

  current(): readonly InboxItem[] {
    return [...this.#items.values()];
  }

  subscribe(listener: (change: InboxChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  push(change: InboxChange): void {
    if (change.type === 'removed') this.#items.delete(change.item.id);
    else this.#items.set(change.item.id, change.item);
    for (const listener of this.#listeners) listener(change);
  }
}
