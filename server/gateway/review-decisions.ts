// Review mode (decisions.md "Review mode"): a candidate that passes the §7 checks waits for a
// facilitator, who approves it (the grant is spent then) or rejects it; an ended grant takes its
// waiting candidates with it. Every change is announced to the consoles watching the room.
import { RejectReason } from '@shared/aor/reject-reasons';
import { publicTopic } from '@shared/aor/topics';
import type { BrokerPort } from '../mqtt/broker-port';
import type { HistoryRecorder } from '../rooms/history-recorder';
import type { ReviewItem, Store } from '../store/store';
import { seconds, type GatewayPublisher } from './gateway-publisher';
import { moderationNotice, reviewNotice, reviewTopicOf } from './review-notices';

export interface ReviewDecisionsDeps {
  readonly broker: BrokerPort;
  readonly store: Store;
  readonly history: HistoryRecorder;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** Ends a grant whose budget an approval used up (the gateway's, with its control event). */
export type EndSpentGrant = (roomId: string, agentId: string, taskId: string) => Promise<void>;

export class ReviewDecisions {
  readonly #deps: ReviewDecisionsDeps;
  readonly #publisher: GatewayPublisher;
  readonly #endSpentGrant: EndSpentGrant;

  constructor(deps: ReviewDecisionsDeps, publisher: GatewayPublisher, endSpentGrant: EndSpentGrant) {
    this.#deps = deps;
    this.#publisher = publisher;
    this.#endSpentGrant = endSpentGrant;
  }

  /**
   * Claims the item, spends the grant and stores the approved copy in one transaction; a grant
   * that refuses turns the approval into a reject with the grant's reason.
   */
  async approve(itemId: number, by: string): Promise<ReviewItem | undefined> {
    const now = this.#deps.now();
    const result = await this.#deps.store.rooms.approveReviewItem(itemId, by, now, seconds(now), (item) =>
      this.#deps.history.describe({
        topic: publicTopic(item.roomId),
        payload: item.payload,
        publisher: null,
        receivedAt: now,
      }),
    );
    if (!result) return undefined;
    const { item } = result;
    if (result.spend.ok) {
      await this.#deps.broker.publish(publicTopic(item.roomId), item.payload, 1);
      if (result.spend.remaining === 0) await this.#endSpentGrant(item.roomId, item.agentId, item.taskId);
    } else {
      await this.#publisher.reject(
        item.roomId,
        result.spend.reason,
        `Approved, but the grant refused: ${result.spend.reason}.`,
        item.messageId,
        item.taskId,
      );
    }
    await this.#announce(item);
    return item;
  }

  async reject(itemId: number, by: string, reason: string): Promise<ReviewItem | undefined> {
    const item = await this.#deps.store.rooms.decideReviewItem(itemId, 'rejected', by, reason, this.#deps.now());
    if (!item) return undefined;
    await this.#publisher.reject(item.roomId, RejectReason.facilitatorRejected, reason, item.messageId, item.taskId);
    await this.#announce(item);
    return item;
  }

  /**
   * Hands a candidate back to its agent undecided (decisions-server.md §86): the item ends
   * `expired` with `reason`, and the agent reads on control that nobody decided it, so it may
   * send it again. Review mode's only reject code is `facilitator_rejected`; the text says which.
   */
  async release(itemId: number, by: string, reason: string): Promise<ReviewItem | undefined> {
    const item = await this.#deps.store.rooms.decideReviewItem(itemId, 'expired', by, reason, this.#deps.now());
    if (!item) return undefined;
    await this.#publisher.reject(
      item.roomId,
      RejectReason.facilitatorRejected,
      `Released undecided: ${reason}. You may send it again.`,
      item.messageId,
      item.taskId,
    );
    await this.#announce(item);
    return item;
  }

  /** An ended grant takes its waiting candidates with it. */
  async expireQueue(roomId: string, agentId: string, taskId: string): Promise<void> {
    for (const item of await this.#deps.store.rooms.listReviewItems(roomId, 'pending')) {
      if (item.agentId !== agentId || item.taskId !== taskId) continue;
      const expired = await this.#deps.store.rooms.decideReviewItem(
        item.id,
        'expired',
        null,
        'grant ended',
        this.#deps.now(),
      );
      if (expired) await this.#announce(expired);
    }
  }

  /** Tells every console watching the room that its moderation mode changed. */
  async announceModeration(roomId: string, moderation: 'auto' | 'review'): Promise<void> {
    await this.#deps.broker.publish(reviewTopicOf(roomId), moderationNotice(roomId, moderation), 1);
  }

  async #announce(item: ReviewItem): Promise<void> {
    await this.#deps.broker.publish(reviewTopicOf(item.roomId), reviewNotice(item), 1);
  }
}
