// What the gateway publishes as itself (AOR §5.7 rejects, §5 control events), stamped with its
// ids and the time in seconds, and recorded in history before the broker routes it.
import { buildRejectEnvelope, type Stamp } from '@shared/aor/control-envelopes';
import type { RejectReason } from '@shared/aor/reject-reasons';
import { controlTopic } from '@shared/aor/topics';
import type { BrokerPort } from '../mqtt/broker-port';
import type { HistoryRecorder } from '../rooms/history-recorder';

export interface GatewayPublisherDeps {
  readonly broker: BrokerPort;
  readonly history: HistoryRecorder;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly newId: () => string;
}

export const seconds = (ms: number) => Math.floor(ms / 1000);

const utf8 = new TextEncoder();
export const encode = (value: unknown) => utf8.encode(JSON.stringify(value));

export class GatewayPublisher {
  readonly #deps: GatewayPublisherDeps;

  constructor(deps: GatewayPublisherDeps) {
    this.#deps = deps;
  }

  stamp(): Stamp {
    return { newId: this.#deps.newId, now: seconds(this.#deps.now()) };
  }

  rejectEnvelope(roomId: string, reason: RejectReason, detail: string, messageId?: string, taskId?: string) {
    return buildRejectEnvelope(
      roomId,
      { reason, detail, ...(messageId ? { messageId } : {}), ...(taskId ? { taskId } : {}) },
      this.stamp(),
    );
  }

  /** Publishes as the gateway, recording the message in history first. */
  async publish(topic: string, payload: Uint8Array): Promise<void> {
    await this.#deps.history.record({ topic, payload, publisher: null, receivedAt: this.#deps.now() });
    await this.#deps.broker.publish(topic, payload, 1);
  }

  async reject(
    roomId: string,
    reason: RejectReason,
    detail: string,
    messageId?: string,
    taskId?: string,
  ): Promise<void> {
    await this.publish(controlTopic(roomId), encode(this.rejectEnvelope(roomId, reason, detail, messageId, taskId)));
  }
}
