// The server-wide flow of inbox items: an item appears when its cause begins and goes when it is
// settled or lapses. The inbox routes narrow it per operator; webhooks deliver it outward.
import type { InboxItem } from '@shared/contract/inbox';

export type InboxChange =
  | { readonly type: 'added'; readonly item: InboxItem }
  | { readonly type: 'updated'; readonly item: InboxItem }
  | { readonly type: 'removed'; readonly item: InboxItem; readonly settledBy: string | null };

export interface InboxFeed {
  /** Every item that waits now, for any operator (a `cosign` item names its party in `ref`). */
  current(): readonly InboxItem[];
  /** Calls `listener` after each change, in order; returns the unsubscribe. */
  subscribe(listener: (change: InboxChange) => void): () => void;
}
