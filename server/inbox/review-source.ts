// Review-mode candidates waiting for a facilitator (AOR §7, gateway/gateway.ts): one item per
// pending review item, gone once it is approved, rejected or expired. The gateway announces
// every change on the console's review topic (gateway/review-notices.ts); with several
// instances every instance hears it, so each inbox follows the whole cluster's queue.
import { reviewItemId, reviewItemPrefix as prefixOf } from '@shared/inbox/item-ids';
import { quoteOf } from '@shared/inbox/rules';
import { reviewTitle } from '@shared/inbox/titles';
import type { InboxItem } from '@shared/contract/inbox';
import type { BrokerPort } from '../mqtt/broker-port';
import type { GrantRecord, ReviewItem } from '../store/store';
import { readTaskGoals } from '../rooms/task-goals';
import { parseJson, resultText, roomName, type InboxSource, type SourceContext } from './source-context';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

/** What a review is about, in words (decisions-web.md §32): the task's goal and the grant's budget. */
interface Subject {
  readonly goals: ReadonlyMap<string, string>;
  readonly grants: readonly GrantRecord[];
}

const messageTypeOf = (envelope: unknown): string | null => {
  const t = (envelope as { payload?: { message_type?: unknown } } | undefined)?.payload?.message_type;
  return typeof t === 'string' ? t.slice(0, 64) : null;
};

function itemOf(review: ReviewItem, room: string, subject: Subject): InboxItem {
  const envelope = parseJson(review.payload);
  const text = resultText(envelope);
  const messageType = messageTypeOf(envelope);
  const goal = subject.goals.get(review.taskId) ?? null;
  const grant = subject.grants.find((g) => g.agentId === review.agentId && g.taskId === review.taskId);
  return {
    id: reviewItemId(review.roomId, review.id),
    kind: 'review',
    urgency: 'now',
    title: reviewTitle(review.agentId, room, messageType, goal),
    quote: text === null ? null : quoteOf(text),
    since: review.submittedAt,
    dueAt: null,
    href: `/rooms/${encodeURIComponent(review.roomId)}`,
    ref: {
      kind: 'review',
      roomId: review.roomId,
      candidateId: String(review.id),
      agentId: review.agentId,
      taskId: review.taskId,
      taskGoal: goal,
      messageType,
      budgetLeft: grant ? Math.max(0, grant.maxMessages - grant.spent) : null,
    },
    claim: null,
  };
}

interface Notice {
  readonly kind?: unknown;
  readonly item?: {
    readonly id?: unknown;
    readonly roomId?: unknown;
    readonly status?: unknown;
    readonly decidedBy?: unknown;
  };
}

export function startReviewSource(ctx: SourceContext, broker: BrokerPort): InboxSource {
  const { board, store } = ctx;
  /** Per room, so a room's re-reads apply in the order their cues came. */
  const queues = new Map<string, Promise<void>>();
  const inRoom = (roomId: string, work: () => Promise<void>) => {
    const next = (queues.get(roomId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => log.error({ roomId, err: error }, 'review items could not be read'));
    queues.set(roomId, next);
    void next.finally(() => queues.get(roomId) === next && queues.delete(roomId));
    return next;
  };
  const reread = (roomId: string) =>
    inRoom(roomId, async () => {
      const pending = await store.rooms.listReviewItems(roomId, 'pending');
      const room = await roomName(store, roomId);
      // Goals and grants are read only for a room with something pending, once per re-read.
      const subject: Subject =
        pending.length === 0
          ? { goals: new Map(), grants: [] }
          : {
              goals: new Map((await readTaskGoals(store, roomId)).map((t) => [t.taskId, t.goal])),
              grants: await store.rooms.listGrants({ roomId, active: true }),
            };
      board.replace(
        prefixOf(roomId),
        pending.map((r) => itemOf(r, room, subject)),
      );
    });

  const off = broker.onMessage('switchboard/rooms/+/review', (message) => {
    const notice = parseJson(message.payload) as Notice | undefined;
    if (notice?.kind !== 'review_item' || typeof notice.item?.roomId !== 'string') return;
    const { roomId, id, status, decidedBy } = notice.item;
    if (status !== 'pending' && (typeof id === 'number' || typeof id === 'string')) {
      // Settled: gone at once, with who settled it, before the re-read confirms it.
      void inRoom(roomId, async () =>
        board.remove(reviewItemId(roomId, id), typeof decidedBy === 'string' ? decidedBy : null),
      );
      return;
    }
    void reread(roomId);
  });

  return {
    async rebuild() {
      for (const room of await store.rooms.listRooms()) await reread(room.id);
    },
    stop: off,
  };
}
