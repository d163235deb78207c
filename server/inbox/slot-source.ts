// OACoP scheduling threads whose answers are in and whose slot waits for approval (OACoP §5,
// server/oacop/oacop-read-models.ts): PROPOSED, and every participant answered the current
// revision. The read models catch up whenever the relay stores envelopes (its feed's cue, another
// instance's included once its head is noticed); a restart folds the stored envelopes again.
import type { InboxItem } from '@shared/contract/inbox';
import { quoteOf } from '@shared/inbox/rules';
import { slotTitle } from '@shared/inbox/titles';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import type { OacopReadModels } from '../oacop/oacop-read-models';
import type { EventFeed } from '../relay/event-feed';
import { coalesced, type InboxSource, type SourceContext } from './source-context';

const PREFIX = 'slot:';

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

export function startSlotSource(ctx: SourceContext, models: OacopReadModels, feed: EventFeed): InboxSource {
  const refresh = coalesced(async () => {
    await models.catchUp();
    const items: InboxItem[] = [];
    for (const view of models.scheduling.list()) {
      const item = itemOf(view);
      if (item) items.push(item);
    }
    ctx.board.replace(PREFIX, items);
  }, 'scheduling threads');
  const off = feed.onStored(() => void refresh());
  return { rebuild: refresh, stop: off };
}
