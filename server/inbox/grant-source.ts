// Mic grants about to run out of time or budget (shared/inbox/rules.ts, grantAttention). Time
// moves without any event, so the live grants are read again on a timer; a grant, a revoke or an
// approved message (a spend) is a cue to read them at once. One read is one indexed query over
// live grants only.
import type { InboxItem } from '@shared/contract/inbox';
import { grantAttention } from '@shared/inbox/rules';
import { grantTitle } from '@shared/inbox/titles';
import type { BrokerPort } from '../mqtt/broker-port';
import type { GrantRecord } from '../store/store';
import { coalesced, roomName, type InboxSource, type SourceContext } from './source-context';

const PREFIX = 'grant:';

function itemOf(grant: GrantRecord, room: string, now: number): InboxItem | null {
  const attention = grantAttention(grant, now);
  if (!attention) return null;
  return {
    id: `${PREFIX}${grant.roomId}:${grant.agentId}:${grant.taskId}`,
    kind: 'grant',
    urgency: attention.urgency,
    title: grantTitle(grant.agentId, room, attention),
    quote: null,
    since: attention.since,
    dueAt: attention.dueAt,
    href: `/rooms/${encodeURIComponent(grant.roomId)}`,
    // A grant is known by its room, agent and task (AOR §5.3): grantId is its task id.
    ref: {
      kind: 'grant',
      roomId: grant.roomId,
      grantId: grant.taskId,
      agentId: grant.agentId,
      expiresAt: attention.dueAt,
      budgetLeft: attention.budgetLeft,
    },
    claim: null,
  };
}

export function startGrantSource(ctx: SourceContext, broker: BrokerPort, everyMs = 5_000): InboxSource {
  const { board, store, clock } = ctx;
  const refresh = coalesced(async () => {
    const now = clock.now();
    const names = new Map<string, string>();
    const items: InboxItem[] = [];
    for (const grant of await store.rooms.listGrants({ active: true })) {
      if (!names.has(grant.roomId)) names.set(grant.roomId, await roomName(store, grant.roomId));
      const item = itemOf(grant, names.get(grant.roomId)!, now);
      if (item) items.push(item);
    }
    board.replace(PREFIX, items);
  }, 'grants');
  const offs = [
    broker.onMessage('rooms/+/control', () => void refresh()),
    broker.onMessage('rooms/+/public', () => void refresh()),
  ];
  const timer = setInterval(() => void refresh(), everyMs);
  timer.unref();
  return {
    rebuild: refresh,
    stop() {
      clearInterval(timer);
      for (const off of offs) off();
    },
  };
}
