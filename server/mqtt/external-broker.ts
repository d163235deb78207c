// The BrokerPort over an external MQTT 5 broker (MQTT_URL: Mosquitto 2 with dynamic security),
// reached as one mqtt.js client with the server's own credentials (issue 3 item 10).
//
// What differs from the embedded broker, and how this port makes up for it
// (docs/decisions-external-broker.md):
// - Who published: a subscriber cannot learn it. Agents publish candidates to
//   `rooms/{roomId}/public_candidates/{agentId}`, which the dynamic-security ACL lets only that
//   agent publish; this port hands such a message on as the spec's `rooms/{roomId}/public_candidates`
//   with `publisher = { kind: 'agent', agentId }`. Every other message has `publisher: null`.
// - No hook before routing: `beforeDispatch` runs when a message arrives, before any handler sees
//   it and before the broker gets its PUBACK (history is written there).
// - Retained messages cannot be refused by the ACL: subscriptions ask for none at subscribe time
//   (Retain Handling 2), and a retained publish seen live is dropped and cleared from the broker.
// - The server sees its own publishes the way aedes shows them: handed to the handlers here, once,
//   with `publisher: null` (its subscriptions are No Local, so the broker does not echo them).
import { randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { isValidId } from '@shared/aor/ids';
import { CodedError } from '@shared/errors';
import type { BrokerMessage, BrokerPort, MessageHandler } from './broker-port';
import { RefusedPublish } from './embedded-broker';
import { DEFAULT_SERVER_CLIENT_ID } from './mosquitto-dynsec';
import { filterCovers, isValidFilter, topicMatches } from './topic-filter';

export interface ExternalBrokerOptions {
  /** MQTT_URL, e.g. `mqtt://broker.internal:1883` or `mqtts://…`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /**
   * Stable across restarts so the broker keeps this server's session (and queues what arrives
   * while it is down). Each server instance needs its own. Default `switchboard-server`.
   */
  readonly clientId?: string;
  /** How long the broker keeps the session after a disconnect; default one hour. 0: clean start. */
  readonly sessionExpirySeconds?: number;
  /**
   * Runs for each message another client published, before any handler sees it and before the
   * broker is acknowledged. A RefusedPublish drops the message quietly (acknowledged, not
   * dispatched); any other throw leaves it unacknowledged: the connection is dropped and the
   * broker delivers it again after the reconnect (with a kept session). It must not wait for
   * this port's own publishes: their acknowledgements queue behind the message being handled.
   */
  readonly beforeDispatch?: (message: BrokerMessage) => Promise<void> | void;
  /** Subscribed at every connect; handlers for filters they cover add nothing on the broker. */
  readonly subscriptions?: readonly string[];
  readonly now?: () => number;
  /** Reconnect backoff: first delay and cap, in ms (defaults 250 and 30 000), with ±20% jitter. */
  readonly backoff?: { readonly minMs: number; readonly maxMs: number };
  readonly log?: (line: string) => void;
  /** Connection changes after the first connect (for /health, and tests). */
  readonly onStatus?: (status: { readonly connected: boolean; readonly sessionPresent?: boolean }) => void;
}

export const DEFAULT_SERVER_SUBSCRIPTIONS = ['rooms/#', 'switchboard/#'] as const;

const CANDIDATE_SUBTOPIC = /^rooms\/([^/]+)\/public_candidates\/([^/]+)$/;
/** Topics an agent may publish to (and so may leave a retained message on). */
const AGENT_WRITABLE = [/^rooms\/[^/]+\/public_candidates\/[^/]+$/, /^rooms\/[^/]+\/agents\/[^/]+\/(heartbeat|work)$/];

/** The spec's topic and the authenticated agent for a per-agent candidate subtopic. */
export function normalizeCandidate(topic: string): { topic: string; agentId: string } | undefined {
  const m = CANDIDATE_SUBTOPIC.exec(topic);
  if (!m || !isValidId(m[1]) || !isValidId(m[2])) return undefined;
  return { topic: `rooms/${m[1]}/public_candidates`, agentId: m[2] };
}

/** The broker filters that carry what `filter` matches once candidates are normalized. */
function wireFilters(filter: string): string[] {
  const levels = filter.split('/');
  const last = levels.at(-1);
  return last === 'public_candidates' || last === '+' ? [filter, `${filter}/+`] : [filter];
}

const toBytes = (payload: Buffer) => new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);

export class ExternalBroker implements BrokerPort {
  readonly #client: MqttClient;
  readonly #options: ExternalBrokerOptions;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  readonly #handlers = new Set<{ filter: string; handler: MessageHandler }>();
  /** Filters subscribed on the broker (re-sent at every connect). */
  readonly #brokerFilters = new Set<string>();
  #closing = false;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;
  #lastError = '';
  /** False until the first connect's subscriptions are in place. */
  #ready = false;

  private constructor(client: MqttClient, options: ExternalBrokerOptions) {
    this.#client = client;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? ((line) => console.error(line));
    for (const f of options.subscriptions ?? DEFAULT_SERVER_SUBSCRIPTIONS) this.#brokerFilters.add(f);
  }

  /** Connects (a refused or unreachable broker is a coded error naming MQTT_URL) and subscribes. */
  static async connect(options: ExternalBrokerOptions): Promise<ExternalBroker> {
    const expiry = options.sessionExpirySeconds ?? 3600;
    const clientOptions: IClientOptions = {
      username: options.username,
      password: options.password,
      clientId: options.clientId ?? DEFAULT_SERVER_CLIENT_ID,
      protocolVersion: 5,
      clean: expiry === 0,
      properties: expiry === 0 ? {} : { sessionExpiryInterval: expiry },
      // Reconnecting is this class's job (backoff); mqtt.js must not resubscribe on its own either.
      reconnectPeriod: 0,
      resubscribe: false,
      connectTimeout: 10_000,
      manualConnect: true,
    };
    const client = mqtt.connect(options.url, clientOptions);
    const broker = new ExternalBroker(client, options);
    // Messages wait for beforeDispatch: mqtt.js acknowledges a QoS 1 message only after this.
    client.handleMessage = (packet, done) => {
      broker.#receive(packet).then(
        () => done(),
        // Not acknowledged: drop this connection without the PUBACK. The broker keeps the message
        // in the session and sends it again after the reconnect. (Calling done with an error would
        // leave mqtt.js's reader stalled on a live connection.)
        () => client.stream.destroy(),
      );
    };
    client.on('connect', (connack) => {
      if (broker.#ready) void broker.#subscribeAll(connack.sessionPresent);
    });
    client.on('error', (error) => broker.#noteError(error));
    client.on('close', () => {
      if (broker.#ready && !broker.#closing) options.onStatus?.({ connected: false });
      broker.#scheduleReconnect();
    });
    await new Promise<void>((resolve, reject) => {
      const onConnect = () => {
        client.off('error', onError);
        resolve();
      };
      const onError = (error: Error) => {
        client.off('connect', onConnect);
        reject(error);
      };
      client.once('connect', onConnect);
      client.once('error', onError);
      client.connect();
    }).catch(async (error: unknown) => {
      broker.#closing = true;
      clearTimeout(broker.#retry);
      await client.endAsync(true).catch(() => undefined);
      const message = (error as Error).message;
      if (/not authorized|bad user name or password/i.test(message)) {
        throw new CodedError('BROKER_AUTH_FAILED', `the broker at MQTT_URL ${options.url} refused "${options.username}" (${message}); run \`npm run cli -- broker setup\` and check MQTT_USERNAME / MQTT_PASSWORD`);
      }
      throw new CodedError('BROKER_UNREACHABLE', `cannot reach the broker at MQTT_URL ${options.url}: ${message}`);
    });
    await broker.#subscribeAll(false);
    broker.#ready = true;
    return broker;
  }

  get connected(): boolean {
    return this.#client.connected;
  }

  #noteError(error: Error): void {
    // One line per distinct failure, not one per retry.
    if (error.message === this.#lastError) return;
    this.#lastError = error.message;
    if (this.#ready && !this.#closing) this.#log(`MQTT broker ${this.#options.url}: ${error.message}`);
  }

  #scheduleReconnect(): void {
    if (this.#closing || this.#retry) return;
    const { minMs, maxMs } = this.#options.backoff ?? { minMs: 250, maxMs: 30_000 };
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

  async #subscribeAll(sessionPresent: boolean): Promise<void> {
    this.#attempt = 0;
    if (this.#lastError) this.#log(`MQTT broker ${this.#options.url}: connected again${sessionPresent ? ' (session kept)' : ''}`);
    this.#lastError = '';
    await Promise.all([...this.#brokerFilters].map((f) => this.#subscribe(f)));
    if (this.#ready) this.#options.onStatus?.({ connected: true, sessionPresent });
  }

  async #subscribe(filter: string): Promise<void> {
    if (!this.#client.connected) return; // sent at the next connect
    try {
      // No Local: the broker does not echo our own publishes (they are dispatched here, once).
      // Retain As Published: a retained publish is recognisable. Retain Handling 2: nothing
      // retained is replayed at subscribe time.
      const granted = await this.#client.subscribeAsync(filter, { qos: 1, nl: true, rap: true, rh: 2 });
      const code = granted[0]?.qos ?? 0x80;
      if (code >= 0x80) this.#log(`MQTT broker refused the subscription ${filter} (reason ${code})`);
    } catch (error) {
      if (!this.#closing) this.#log(`MQTT subscription ${filter} failed: ${(error as Error).message}`);
    }
  }

  async #receive(packet: IPublishPacket): Promise<void> {
    const wireTopic = packet.topic;
    const payload = typeof packet.payload === 'string' ? new TextEncoder().encode(packet.payload) : toBytes(packet.payload);
    if (packet.retain) {
      // A retained publish would replay to later subscribers outside moderation; the ACL cannot
      // refuse it, so it is refused here (never recorded or handled) and cleared from the broker.
      if (payload.byteLength > 0 && AGENT_WRITABLE.some((re) => re.test(wireTopic))) {
        this.#client.publishAsync(wireTopic, Buffer.alloc(0), { qos: 1, retain: true }).catch((e: unknown) => this.#log(`Could not clear a retained message on ${wireTopic}: ${(e as Error).message}`));
      }
      return;
    }
    const candidate = normalizeCandidate(wireTopic);
    const message: BrokerMessage = {
      topic: candidate?.topic ?? wireTopic,
      payload,
      publisher: candidate ? { kind: 'agent', agentId: candidate.agentId } : null,
      receivedAt: this.#now(),
    };
    if (this.#options.beforeDispatch) {
      try {
        await this.#options.beforeDispatch(message);
      } catch (error) {
        if (error instanceof RefusedPublish) return;
        this.#log(`Not acknowledging ${wireTopic}, it could not be recorded: ${(error as Error).message}`);
        throw error;
      }
    }
    this.#dispatch(message);
  }

  #dispatch(message: BrokerMessage): void {
    for (const { filter, handler } of this.#handlers) {
      if (!topicMatches(filter, message.topic)) continue;
      try {
        handler(message);
      } catch (error) {
        this.#log(`Handler for ${filter} failed on ${message.topic}: ${(error as Error).message}`);
      }
    }
  }

  /** Publishes as the server, then hands the message to this process's handlers (as aedes does). */
  async publish(topic: string, payload: Uint8Array, qos: 0 | 1 = 1): Promise<void> {
    if (this.#closing) throw new CodedError('BROKER_CLOSED', `not publishing to ${topic}: the broker connection is closed`);
    await this.#client.publishAsync(topic, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), { qos, retain: false });
    this.#dispatch({ topic, payload, publisher: null, receivedAt: this.#now() });
  }

  onMessage(filter: string, handler: MessageHandler): () => void {
    if (!isValidFilter(filter)) throw new CodedError('invalid_filter', `not an MQTT topic filter: ${filter}`);
    const entry = { filter, handler };
    this.#handlers.add(entry);
    for (const wire of wireFilters(filter)) {
      if ([...this.#brokerFilters].some((b) => filterCovers(b, wire))) continue;
      this.#brokerFilters.add(wire);
      void this.#subscribe(wire);
    }
    return () => this.#handlers.delete(entry);
  }

  /** Ends the connection (DISCONNECT; the broker keeps the session for its expiry). */
  async close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#retry);
    await this.#client.endAsync().catch(() => undefined);
  }
}

/** A unique client id for tests and for extra instances: `<prefix>-<random>`. */
export const uniqueClientId = (prefix = 'switchboard-server') => `${prefix}-${randomUUID().slice(0, 8)}`;
