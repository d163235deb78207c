// The BrokerPort over an external MQTT 5 broker (MQTT_URL: Mosquitto 2 with dynamic security),
// reached as one mqtt.js client with the server's own credentials, kept connected with backoff
// (external-reconnect.ts).
//
// What differs from the embedded broker, and how this port makes up for it
// (docs/decisions-external-broker.md):
// - Who published: a subscriber cannot learn it. Agents publish candidates to
//   `rooms/{roomId}/public_candidates/{agentId}`, which the dynamic-security ACL lets only that
//   agent publish; this port hands such a message on as the spec's `rooms/{roomId}/public_candidates`
//   with `publisher = { kind: 'agent', agentId }`. Every other message has `publisher: null`.
// - No hook before routing: `beforeDispatch` runs when a message arrives, before any handler sees
//   it and before the broker gets its PUBACK (history is written there, and a candidate's
//   decision). Messages are taken in a pipeline, each PUBACK held until its hook settled.
// - Retained messages cannot be refused by the ACL: subscriptions ask for none at subscribe time
//   (Retain Handling 2), and a retained publish seen live is dropped and cleared from the broker.
// - The server sees its own publishes the way aedes shows them: handed to the handlers here, once,
//   with `publisher: null` (its subscriptions are No Local, so the broker does not echo them).
// - Several instances (`shareGroup`, docs/decisions-cluster.md): every instance still subscribes
//   `rooms/#` for its consoles and presence, and also joins an MQTT 5 shared subscription on the
//   agents' topics; subscription identifiers tell the two copies apart (external-subscriptions.ts).
//   The shared copy is the one recorded and decided (once in the cluster); the other copy only
//   feeds this instance's consoles and presence. Another instance's publishes are recorded by
//   that instance.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { CodedError } from '@shared/errors';
import { isAuthRefusal } from './broker-refusals';
import type { BrokerMessage, BrokerPort, HandlerOptions, MessageHandler } from './broker-port';
import { DEFAULT_SERVER_CLIENT_ID } from './dynsec-acls';
import { Reconnector, type Backoff } from './external-reconnect';
import { ExternalSubscriptions } from './external-subscriptions';
import { AGENT_WRITABLE, normalizeCandidate } from './external-topics';
import { payloadBytes } from './payload-bytes';
import { nextConnect } from './next-connect';
import { pipelineIntake, writeCoalescer } from './pipelined-intake';
import { RefusedPublish } from './refused-publish';
import { isValidFilter, topicMatches } from './topic-filter';
import { moduleLogger, type LineLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

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
   * broker is acknowledged. Calls start in arrival order without waiting for the previous one
   * to settle (the pipelined intake), so a hook must put its writes in hand in call order (the
   * stores' group commits keep that order). A RefusedPublish drops the message quietly
   * (acknowledged, not dispatched); any other throw leaves it unacknowledged: the connection is
   * dropped and the broker delivers it again after the reconnect (with a kept session).
   */
  readonly beforeDispatch?: (message: BrokerMessage) => Promise<void> | void;
  /**
   * Several instances on this broker: the MQTT 5 shared-subscription group through which the
   * agents' messages are handed to one instance each (GATEWAY_SHARE_GROUP in the runtime).
   * Then `beforeDispatch` runs only for the copies this instance is handed that way, and
   * `admit` for the copies every instance gets. Unset: one instance, every message recorded.
   */
  readonly shareGroup?: string;
  /**
   * With `shareGroup`: runs for the copy of an agent's message every instance gets (for its
   * consoles and presence), before the handlers; a RefusedPublish drops it (an unknown room).
   */
  readonly admit?: (message: BrokerMessage) => Promise<void> | void;
  /** Subscribed at every connect; handlers for filters they cover add nothing on the broker. */
  readonly subscriptions?: readonly string[];
  readonly now?: () => number;
  /** Reconnect backoff: first delay and cap, in ms (defaults 250 and 30 000), with ±20% jitter. */
  readonly backoff?: Backoff;
  readonly log?: LineLogger;
  /** Connection changes after the first connect (for /health, and tests). */
  readonly onStatus?: (status: { readonly connected: boolean; readonly sessionPresent?: boolean }) => void;
}

export const DEFAULT_SERVER_SUBSCRIPTIONS = ['rooms/#', 'switchboard/#'] as const;

export class ExternalBroker implements BrokerPort {
  readonly #client: MqttClient;
  readonly #options: ExternalBrokerOptions;
  readonly #now: () => number;
  readonly #log: LineLogger;
  readonly #handlers = new Set<{ filter: string; handler: MessageHandler; shared: boolean }>();
  readonly #reconnector: Reconnector;
  readonly #subscriptions: ExternalSubscriptions;
  /** False until the first connect's subscriptions are in place. */
  #ready = false;
  /** Set by stopIntake: arriving messages are left unacknowledged. */
  #intakeStopped = false;
  /** Holds the socket's writes until the end of this turn (pipelined-intake.ts). */
  readonly #coalesce: () => void;

  private constructor(client: MqttClient, options: ExternalBrokerOptions) {
    this.#client = client;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? ((msg, fields) => log.warn(fields ?? {}, msg));
    this.#reconnector = new Reconnector(client, options.url, options.backoff, this.#log);
    this.#subscriptions = new ExternalSubscriptions(client, {
      shareGroup: options.shareGroup,
      filters: options.subscriptions ?? DEFAULT_SERVER_SUBSCRIPTIONS,
      log: this.#log,
      closing: () => this.#reconnector.closing,
    });
    this.#coalesce = writeCoalescer(client);
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
    // Messages are taken in a pipeline; each PUBACK waits for its message's hooks.
    pipelineIntake(client, (packet) => broker.#receive(packet), broker.#coalesce);
    client.on('connect', (connack) => {
      // mqtt.js leaves Nagle on: a PUBACK or a hand-over would wait for the broker's delayed ACK.
      (client.stream as Partial<Socket>).setNoDelay?.(true);
      if (broker.#ready) void broker.#subscribeAll(connack.sessionPresent);
    });
    client.on('error', (error) => broker.#reconnector.noteError(error, broker.#ready));
    client.on('close', () => {
      if (broker.#ready && !broker.#reconnector.closing) options.onStatus?.({ connected: false });
      broker.#reconnector.schedule();
    });
    await nextConnect(client, () => client.connect()).catch(async (error: unknown) => {
      broker.#reconnector.stop();
      await client.endAsync(true).catch(() => undefined);
      const message = (error as Error).message;
      if (isAuthRefusal(message)) {
        throw new CodedError(
          'BROKER_AUTH_FAILED',
          `the broker at MQTT_URL ${options.url} refused "${options.username}" (${message}); run \`npm run cli -- broker setup\` and check MQTT_USERNAME / MQTT_PASSWORD`,
        );
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

  async #subscribeAll(sessionPresent: boolean): Promise<void> {
    this.#reconnector.connected(sessionPresent);
    await this.#subscriptions.subscribeAll();
    if (this.#ready) this.#options.onStatus?.({ connected: true, sessionPresent });
  }

  async #receive(packet: IPublishPacket): Promise<void> {
    // Stopping: not handled and never acknowledged, so the broker sends it again to this session.
    if (this.#intakeStopped) return new Promise<void>(() => undefined);
    const wireTopic = packet.topic;
    const payload = payloadBytes(packet.payload);
    const copy = this.#subscriptions.copyKind(packet);
    if (packet.retain) {
      // The shared copy's receiver clears it (one clear per retained publish, not one per instance).
      if (!copy.shared) return;
      // A retained publish would replay to later subscribers outside moderation; the ACL cannot
      // refuse it, so it is refused here (never recorded or handled) and cleared from the broker.
      if (payload.byteLength > 0 && AGENT_WRITABLE.some((re) => re.test(wireTopic))) {
        this.#client
          .publishAsync(wireTopic, Buffer.alloc(0), { qos: 1, retain: true })
          .catch((e: unknown) =>
            this.#log('could not clear a retained message', { topic: wireTopic, reason: (e as Error).message }),
          );
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
    const clustered = this.#options.shareGroup !== undefined;
    // Clustered, a fan-out copy of an agent's message is admitted (not recorded: its shared copy
    // is, on whichever instance gets it); another instance's publish was recorded by that instance.
    const agentMessage = AGENT_WRITABLE.some((re) => re.test(wireTopic));
    const record = copy.shared;
    const hook = record ? this.#options.beforeDispatch : clustered && agentMessage ? this.#options.admit : undefined;
    if (hook) {
      try {
        await hook(message);
      } catch (error) {
        if (error instanceof RefusedPublish) return;
        this.#log('not acknowledging a message that could not be recorded', {
          topic: wireTopic,
          reason: (error as Error).message,
        });
        throw error;
      }
    }
    if (!clustered) return this.#dispatch(message);
    // The shared copy goes to the once-per-cluster handlers; the fan-out copy to the others.
    this.#dispatch(message, (h) => (h.shared ? copy.shared : copy.fanout));
  }

  #dispatch(message: BrokerMessage, wants: (entry: { shared: boolean }) => boolean = () => true): void {
    for (const entry of this.#handlers) {
      const { filter, handler } = entry;
      if (!wants(entry) || !topicMatches(filter, message.topic)) continue;
      try {
        handler(message);
      } catch (error) {
        this.#log('a message handler failed', { filter, topic: message.topic, reason: (error as Error).message });
      }
    }
  }

  /** Publishes as the server, then hands the message to this process's handlers (as aedes does). */
  async publish(topic: string, payload: Uint8Array, qos: 0 | 1 = 1): Promise<void> {
    if (this.#reconnector.closing)
      throw new CodedError('BROKER_CLOSED', `not publishing to ${topic}: the broker connection is closed`);
    this.#coalesce();
    await this.#client.publishAsync(topic, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), {
      qos,
      retain: false,
    });
    this.#dispatch({ topic, payload, publisher: null, receivedAt: this.#now() });
  }

  onMessage(filter: string, handler: MessageHandler, options: HandlerOptions = {}): () => void {
    if (!isValidFilter(filter)) throw new CodedError('invalid_filter', `not an MQTT topic filter: ${filter}`);
    const entry = { filter, handler, shared: options.shared === true };
    this.#handlers.add(entry);
    this.#subscriptions.cover(filter);
    return () => this.#handlers.delete(entry);
  }

  /**
   * Clustered: stops taking a share of the agents' messages (the other instances get them all).
   * A stopping instance calls this before its gateway stops, so nothing is handed to it that it
   * would record and never decide: Mosquitto goes on handing a disconnected session its share
   * (queued until it comes back), so leaving must happen before the DISCONNECT.
   */
  leaveShareGroup(): Promise<void> {
    return this.#subscriptions.leaveShareGroup();
  }

  /**
   * Ends the connection (DISCONNECT; the broker keeps the session for its expiry), after leaving
   * the share group unless `keepShare`: an instance with no other to take its share keeps it, and
   * the broker queues it in the session until this client id connects again
   * (docs/decisions-cluster.md C4).
   */
  async close(options: { keepShare?: boolean } = {}): Promise<void> {
    if (!options.keepShare) await this.leaveShareGroup();
    this.stopIntake();
    this.#reconnector.stop();
    // A graceful end waits for this server's own publishes to be acknowledged; not for ever.
    const ended = this.#client.endAsync().catch(() => undefined);
    const late = setTimeout(() => void this.#client.endAsync(true).catch(() => undefined), 5_000);
    await ended;
    clearTimeout(late);
  }

  /**
   * Takes no more messages: those that arrive from now on are neither handed to the hooks nor
   * acknowledged, so the broker keeps them for this session (a server stopping calls this before
   * its gateway drains: a decision whose hand-over the closing connection would refuse is never
   * made). Messages already taken are finished.
   */
  stopIntake(): void {
    this.#intakeStopped = true;
  }
}

/** A unique client id for tests and for extra instances: `<prefix>-<random>`. */
export const uniqueClientId = (prefix = 'switchboard-server') => `${prefix}-${randomUUID().slice(0, 8)}`;
