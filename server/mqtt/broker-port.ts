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

export interface HandlerOptions {
  /**
   * Several instances on one external broker (docs/decisions-cluster.md): the handler sees each
   * message once in the whole cluster, on one instance: what this process publishes itself, and
   * the agents' messages the broker's shared subscription hands to this instance. For work that
   * must happen once (the gateway's decisions). Without it a handler sees every message on every
   * instance (consoles, presence). One process on its own broker: no difference.
   */
  readonly shared?: boolean;
}

export interface BrokerPort {
  /** Publishes as the server itself (the gateway's identity in §8). */
  publish(topic: string, payload: Uint8Array, qos?: 0 | 1): Promise<void>;
  /** Sees every accepted publish whose topic matches `filter`; returns an unsubscribe. */
  onMessage(filter: string, handler: MessageHandler, options?: HandlerOptions): () => void;
}
