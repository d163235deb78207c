// What the gateway, the history recorder and presence need from a broker, whichever it is:
// aedes in this process, or an external MQTT 5 broker (Mosquitto, EMQX) reached as a client.
import type { BrokerIdentity } from './acl';

export interface BrokerMessage {
  readonly topic: string;
  /** Exact bytes as published. */
  readonly payload: Uint8Array;
  /**
   * The identity the broker authenticated for the publishing connection; null for the server's
   * own publishes, and whenever the broker cannot say (an external broker).
   */
  readonly publisher: BrokerIdentity | null;
  readonly receivedAt: number;
}

export type MessageHandler = (message: BrokerMessage) => void;

export interface BrokerPort {
  /** Publishes as the server itself (the gateway's identity in §8). */
  publish(topic: string, payload: Uint8Array, qos?: 0 | 1): Promise<void>;
  /** Sees every accepted publish whose topic matches `filter`; returns an unsubscribe. */
  onMessage(filter: string, handler: MessageHandler): () => void;
}
