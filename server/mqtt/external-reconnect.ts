// The external broker's connection kept up: reconnects with exponential backoff and jitter,
// keeping mqtt.js's stores so unacknowledged QoS 1 publishes are sent again, and one log line per
// distinct failure rather than one per retry.
import type { MqttClient } from 'mqtt';
import type { LineLogger } from '../logging/logger';

export interface Backoff {
  readonly minMs: number;
  readonly maxMs: number;
}

const DEFAULT_BACKOFF: Backoff = { minMs: 250, maxMs: 30_000 };

export class Reconnector {
  readonly #client: MqttClient;
  readonly #url: string;
  readonly #backoff: Backoff;
  readonly #log: LineLogger;
  #closing = false;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;
  #lastError = '';

  constructor(client: MqttClient, url: string, backoff: Backoff | undefined, log: LineLogger) {
    this.#client = client;
    this.#url = url;
    this.#backoff = backoff ?? DEFAULT_BACKOFF;
    this.#log = log;
  }

  /** Set once the connection is being closed on purpose: nothing reconnects, nothing is logged as a failure. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Logs a connection error once per distinct message, once the first connect succeeded. */
  noteError(error: Error, ready: boolean): void {
    // One line per distinct failure, not one per retry.
    if (error.message === this.#lastError) return;
    this.#lastError = error.message;
    if (ready && !this.#closing)
      this.#log('MQTT broker connection failed', { broker: this.#url, reason: error.message });
  }

  /** After a close: the next attempt, `minMs · 2^attempt` capped at `maxMs`, ±20%. */
  schedule(): void {
    if (this.#closing || this.#retry) return;
    const { minMs, maxMs } = this.#backoff;
    const base = Math.min(maxMs, minMs * 2 ** Math.min(this.#attempt, 16));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.#attempt++;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#closing) return;
      // Keep the stores: QoS 1 publishes not yet acknowledged are sent again after the reconnect.
      this.#client.reconnect({ incomingStore: this.#client.incomingStore, outgoingStore: this.#client.outgoingStore });
    }, delay);
    this.#retry.unref();
  }

  /** A connect succeeded: the backoff starts over, and a recovery from a logged failure is logged. */
  connected(sessionPresent: boolean): void {
    this.#attempt = 0;
    if (this.#lastError) this.#log('MQTT broker connected again', { broker: this.#url, sessionPresent });
    this.#lastError = '';
  }

  /** No more reconnects. */
  stop(): void {
    this.#closing = true;
    clearTimeout(this.#retry);
  }
}
