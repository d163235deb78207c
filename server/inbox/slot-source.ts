// OACoP scheduling threads whose answers are in and whose slot waits for approval (OACoP §5,
// server/oacop/oacop-read-models.ts): PROPOSED, and every participant answered the current
// revision. The read models catch up whenever the relay stores envelopes (its feed's cue, another
// instance's included once its head is noticed) and tell which threads moved; only those are
// looked at again, so an envelope costs the same at ten threads or a million
// (decisions-server.md §76). A thread reaches the inbox only when one of this server's own
// parties is in it (the initiator or a participant: an enrolled operator or one of the demo's
// agents, §75), at most SLOT_ITEMS_PER_SENDER items per initiator, and while its last activity is
// younger than SLOT_ITEM_MAX_AGE_MS. A restart folds the stored envelopes again.
import type { InboxItem } from '@shared/contract/inbox';
import { quoteOf } from '@shared/inbox/rules';
import { slotTitle } from '@shared/inbox/titles';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import type { OacopReadModels } from '../oacop/oacop-read-models';
import type { EventFeed } from '../relay/event-feed';
import { coalesced, type InboxSource, type SourceContext } from './source-context';

const PREFIX = 'slot:';
/** At most this many slot items on the board from one initiating DID (decisions-server.md §75). */
export const SLOT_ITEMS_PER_SENDER = 20;
/** A thread quiet this long leaves the inbox (decisions-server.md §75). */
export const SLOT_ITEM_MAX_AGE_MS = 7 * 24 * 3_600_000;
/** How often aged items are looked for. */
const AGE_SWEEP_MS = 60_000;

export interface SlotSourceOptions {
  /** The DIDs that are this server's own parties now: enrolled operators and the demo's agents. */
  readonly localParties: () => Promise<ReadonlySet<string>>;
  readonly perSender?: number;
  readonly maxAgeMs?: number;
}

function itemOf(view: SchedulingThreadView): InboxItem | null {
  const { state, participants } = view;
  if (state.status !== 'PROPOSED' || participants.length === 0) return null;
  const answered = participants.filter((p) => p.response?.respondingToRevision === state.revision);
  if (answered.length < participants.length) return null;
  const title = state.object.title;
  return {
    id: `${PREFIX}${view.threadId}`,
    kind: 'slot',
    urgency: 'soon',
    title: slotTitle(answered.length),
    // The thread's title is the initiating agent's words.
    quote: typeof title === 'string' ? quoteOf(title) : null,
    since: view.updatedAt,
    dueAt: null,
    href: `/scheduling/${encodeURIComponent(view.threadId)}`,
    ref: { kind: 'slot', threadId: view.threadId, revision: state.revision },
    claim: null,
  };
}

const involves = (view: SchedulingThreadView, local: ReadonlySet<string>) =>
  local.has(view.state.initiator) || view.participants.some((p) => local.has(p.did));

export function startSlotSource(
  ctx: SourceContext,
  models: OacopReadModels,
  feed: EventFeed,
  options: SlotSourceOptions,
): InboxSource {
  const perSender = options.perSender ?? SLOT_ITEMS_PER_SENDER;
  const maxAgeMs = options.maxAgeMs ?? SLOT_ITEM_MAX_AGE_MS;
  /** Initiator → its threads with an item on the board; thread → its initiator. */
  const bySender = new Map<string, Set<string>>();
  const senderOf = new Map<string, string>();
  /** Threads a catch-up touched, not yet looked at. */
  const pending = new Set<string>();

  const drop = (threadId: string) => {
    const sender = senderOf.get(threadId);
    if (sender !== undefined) {
      const threads = bySender.get(sender)!;
      threads.delete(threadId);
      if (threads.size === 0) bySender.delete(sender);
      senderOf.delete(threadId);
    }
    ctx.board.remove(`${PREFIX}${threadId}`);
  };

  const consider = (threadId: string, local: ReadonlySet<string>) => {
    const view = models.scheduling.get(threadId);
    const item = view && itemOf(view);
    if (!view || !item || item.since < ctx.clock.now() - maxAgeMs || !involves(view, local)) return drop(threadId);
    const sender = view.state.initiator;
    const threads = bySender.get(sender) ?? new Set<string>();
    // A sender at its cap adds nothing new; its items already there are kept up to date.
    if (!threads.has(threadId) && threads.size >= perSender) return;
    threads.add(threadId);
    bySender.set(sender, threads);
    senderOf.set(threadId, sender);
    ctx.board.put(item);
  };

  const offChanged = models.onThreadsChanged((threadIds) => {
    for (const id of threadIds) pending.add(id);
  });
  const refresh = coalesced(async () => {
    await models.catchUp();
    if (pending.size === 0) return;
    const local = await options.localParties();
    const ids = [...pending];
    pending.clear();
    for (const id of ids) consider(id, local);
  }, 'scheduling threads');
  const offStored = feed.onStored(() => void refresh());
  const ageTimer = setInterval(() => {
    const horizon = ctx.clock.now() - maxAgeMs;
    for (const threadId of senderOf.keys())
      if ((ctx.board.get(`${PREFIX}${threadId}`)?.since ?? 0) < horizon) drop(threadId);
  }, AGE_SWEEP_MS);
  ageTimer.unref();

  return {
    // At start, every thread once.
    async rebuild() {
      await models.catchUp();
      for (const view of models.scheduling.list()) pending.add(view.threadId);
      await refresh();
    },
    stop() {
      clearInterval(ageTimer);
      offStored();
      offChanged();
    },
  };
}
