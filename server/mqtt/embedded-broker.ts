// aedes in the server process: the §8 ACL enforced on every CONNECT, PUBLISH (wills included) and
// SUBSCRIBE, each client id bound to its identity (client-ids.ts), revoked credentials ending
// connections (credential-checks.ts), and every allowed publish recorded before it is routed.
// Connections come from the listeners (broker-listeners.ts): MQTT over TCP for agents, MQTT over
// WebSocket at /mqtt for the browser.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { parseEnvelope } from '@shared/aor/envelope';
import { countChars } from '@shared/contract/text-limits';
import { checkPayloadSize } from '@shared/aor/payload-size';
import { mayPublish, maySubscribe, type BrokerIdentity, type PublishRequest } from './acl';
import { isAssignedId, sameIdentity } from './broker-identities';
import { BrokerListeners, MAX_PACKET_BYTES } from './broker-listeners';
import type { BrokerMessage, BrokerPort, MessageHandler } from './broker-port';
import { mayUseClientId } from './client-ids';
import { CredentialChecks } from './credential-checks';
import { payloadBytes } from './payload-bytes';
import type { PublishQuotas } from './publish-quotas';
import { RefusedPublish } from './refused-publish';
import { DEFAULT_REVALIDATE_MS, type StillValid } from './revalidate';
import { applySendLimits, DEFAULT_SEND_LIMITS, queuedBytes, type SendLimits } from './send-limits';
import { storageFailure } from '../store/storage-errors';
import { topicMatches } from './topic-filter';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

export interface EmbeddedBrokerOptions {
  /**
   * Checks an agent's MQTT username/password against the stored credential. A function accepts
   * the agent and is asked again while the agent stays connected: false then ends the connection
   * (the credential was removed, rotated or suspended, or "disconnect now"). `true` accepts it for
   * as long as it stays; 'suspended' refuses it as not authorized (decisions-server.md §62).
   */
  readonly verifyAgent: (agentId: string, password: string) => Promise<boolean | 'suspended' | StillValid>;
  /**
   * How often every open connection's credential is checked again (ms), and how long an agent's
   * publish may rely on the last check; an operator's publish is always checked. Default 2 s.
   */
  readonly revalidateEveryMs?: number;
  /**
   * Runs after the ACL allows a client's publish and before the broker routes it, so a message
   * is durably recorded before anyone can see it. A throw refuses the publish.
   */
  readonly beforeRoute?: (message: BrokerMessage) => Promise<void> | void;
  readonly onClientGone?: (identity: BrokerIdentity, clientId: string) => void;
  readonly now?: () => number;
  /** What the broker holds for a client that does not read, and how long (send-limits.ts). */
  readonly sendLimits?: SendLimits;
  /** How much each agent may publish (publish-quotas.ts); unlimited when absent. */
  readonly publishQuotas?: PublishQuotas;
  /**
   * Runs before a connection whose credential was revoked is closed, so it still reads what the
   * revocation sends it (a suspended agent's grants end with a mic_revoke it can read).
   */
  readonly beforeRevoke?: (identity: BrokerIdentity) => Promise<void>;
}

const authError = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/**
 * A summary of an operator's envelope, which the ACL needs to check type, sender and room. Read
 * by the strict reader every AOR message goes through (duplicate keys refused, schema checked):
 * what the ACL checks is then what every later reader sees.
 */
function envelopeSummary(payload: Buffer | string): PublishRequest['envelope'] {
  const parsed = parseEnvelope(typeof payload === 'string' ? payload : payloadBytes(payload));
  if (!parsed.ok) return undefined;
  const envelope = parsed.value;
  const summary = {
    type: envelope.type,
    roomId: envelope.room_id,
    fromKind: envelope.from.kind,
    fromId: envelope.from.id,
  };
  if (envelope.type === 'say') return { ...summary, textChars: countChars(envelope.payload.text) };
  if (envelope.type === 'task') return { ...summary, textChars: countChars(envelope.payload.goal) };
  if (envelope.type === 'mic_grant') return { ...summary, grantSeconds: envelope.payload.expires_at - envelope.ts };
  return summary;
}

/** `clients` is aedes' public registry of connected clients by id (not in its typings). */
const clientsOf = (aedes: Aedes) => (aedes as unknown as { clients: Record<string, Client | undefined> }).clients;

export class EmbeddedBroker implements BrokerPort {
  readonly #aedes: Aedes;
  readonly #identities = new WeakMap<Client, BrokerIdentity>();
  /** Identities that authenticated a WebSocket upgrade, until its CONNECT arrives. */
  readonly #upgradeIdentities = new WeakMap<IncomingMessage, { identity: BrokerIdentity; stillValid: StillValid }>();
  readonly #handlers = new Set<{ filter: string; handler: MessageHandler }>();
  readonly #now: () => number;
  readonly #sendLimits: SendLimits;
  /** Per connected client: the bytes the process holds for it (send-limits.ts). */
  readonly #queued = new WeakMap<Client, () => number>();
  readonly #checks: CredentialChecks;
  readonly #listeners: BrokerListeners;
  #revalidateTimer: NodeJS.Timeout | undefined;

  private constructor(
    aedes: Aedes,
    now: () => number,
    sendLimits: SendLimits,
    revalidateEveryMs: number,
    beforeRevoke: EmbeddedBrokerOptions['beforeRevoke'],
  ) {
    this.#aedes = aedes;
    this.#now = now;
    this.#sendLimits = sendLimits;
    this.#checks = new CredentialChecks(
      now,
      revalidateEveryMs,
      () => Object.values(clientsOf(aedes)),
      (client) => clientsOf(aedes)[client.id] === client,
      beforeRevoke &&
        (async (client) => {
          const identity = this.#identities.get(client);
          if (identity) await beforeRevoke(identity);
        }),
    );
    this.#listeners = new BrokerListeners(
      (connection, request, socket) => this.#handle(connection, request, socket),
      (request, upgrade) => this.#upgradeIdentities.set(request, upgrade),
    );
  }

  static async create(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
    const now = options.now ?? Date.now;
    // The hooks need the instance, which exists right after aedes does and before any connection.
    const ref: { broker?: EmbeddedBroker } = {};
    const sendLimits = options.sendLimits ?? DEFAULT_SEND_LIMITS;
    const aedes = await Aedes.createBroker({
      maximumPacketSize: MAX_PACKET_BYTES,
      // Only a backstop: applySendLimits never lets aedes wait for a drain (send-limits.ts).
      drainTimeout: sendLimits.drainTimeoutMs,
      authenticate: (client, username, password, done) => {
        void ref.broker!.#authenticate(client, username, password, options).then(
          () => done(null, true),
          (error: AuthenticateError) => done(error, false),
        );
      },
      authorizePublish: (client, packet, callback) => {
        if (!client) return callback(null); // the server's own publishes
        const broker = ref.broker!;
        const identity = broker.#identities.get(client);
        if (!identity) return callback(new Error('not_authenticated'));
        // A revoked credential publishes nothing, even before the sweep closes its connection; a
        // will (published once the connection is closed) is checked whatever the last check.
        if (broker.#checks.revoked(client)) return callback(new Error('not_authorized'));
        const recheck = broker.#checks.beforePublish(client, client.closed);
        if (!recheck) return broker.#authorizePublish(identity, packet, callback, options);
        recheck.then(
          (valid) => {
            if (valid) return broker.#authorizePublish(identity, packet, callback, options);
            if (client.closed) return callback(new Error('not_authorized'));
            void broker.#checks.revoke(client, callback);
          },
          () => callback(new Error('not_checked')),
        );
      },
      authorizeSubscribe: (client, subscription, callback) => {
        const identity = ref.broker!.#identities.get(client);
        // A refused filter gets a failure return code in SUBACK; the connection stays up.
        if (!identity || !maySubscribe(identity, subscription.topic).ok) return callback(null, null);
        callback(null, subscription);
      },
    });
    const broker = new EmbeddedBroker(
      aedes,
      now,
      sendLimits,
      options.revalidateEveryMs ?? DEFAULT_REVALIDATE_MS,
      options.beforeRevoke,
    );
    ref.broker = broker;
    broker.#revalidateTimer = setInterval(() => void broker.revalidate(), broker.#checks.everyMs).unref();
    aedes.on('publish', (packet, client) => broker.#dispatch(packet, client));
    aedes.on('clientDisconnect', (client) => {
      const identity = broker.#identities.get(client);
      if (identity) options.onClientGone?.(identity, client.id);
    });
    return broker;
  }

  /** The ACL, then `beforeRoute` (recorded before anyone can see it). */
  #authorizePublish(
    identity: BrokerIdentity,
    packet: PublishPacket,
    callback: (error?: Error | null) => void,
    options: EmbeddedBrokerOptions,
  ): void {
    const verdict = mayPublish(identity, {
      topic: packet.topic,
      retain: packet.retain,
      ...(identity.kind === 'operator' ? { envelope: envelopeSummary(packet.payload) } : {}),
    });
    if (!verdict.ok) return callback(new Error(verdict.reason));
    const refused = overLimit(identity, packet, options.publishQuotas);
    if (refused) return callback(new Error(refused));
    if (!options.beforeRoute) return callback(null);
    const message = {
      topic: packet.topic,
      payload: payloadBytes(packet.payload),
      publisher: identity,
      receivedAt: this.#now(),
    };
    Promise.resolve(options.beforeRoute(message)).then(
      () => callback(null),
      (error: unknown) => {
        if (error instanceof RefusedPublish) return callback(new Error(error.message));
        const storage = storageFailure(error);
        if (storage)
          log.error({ code: storage.code, topic: packet.topic }, 'refused a publish that could not be recorded');
        else log.error({ topic: packet.topic, err: error }, 'refused a publish that could not be recorded');
        callback(new Error('not_recorded'));
      },
    );
  }

  async #authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
    options: EmbeddedBrokerOptions,
  ) {
    let identity: BrokerIdentity | undefined;
    let stillValid: StillValid | undefined;
    // Before the credential is read: a sweep asked for after this may have missed this CONNECT.
    const asked = this.#checks.asked;
    const readAt = this.#now();
    if (client.req) {
      // WebSocket: the upgrade was authenticated by the operator's session cookie.
      const upgrade = this.#upgradeIdentities.get(client.req);
      if (!upgrade) throw authError('not_authorized', 5);
      identity = upgrade.identity;
      stillValid = upgrade.stillValid;
    } else {
      if (!username || !password) throw authError('bad_username_or_password', 4);
      const verified = await options.verifyAgent(username, password.toString('utf8'));
      if (!verified) throw authError('bad_username_or_password', 4);
      if (verified === 'suspended') throw authError('not_authorized', 5);
      identity = { kind: 'agent', agentId: username };
      if (typeof verified === 'function') stillValid = verified;
    }
    if (!mayUseClientId(identity, client.id, isAssignedId(client))) throw authError('not_authorized', 5);
    // A client id in use by another identity cannot be taken over (MQTT would disconnect the
    // current holder): refuse the newcomer instead.
    const holder = this.#connected(client.id);
    const holderIdentity = holder ? this.#identities.get(holder) : undefined;
    if (holderIdentity && !sameIdentity(holderIdentity, identity)) throw authError('identifier_rejected', 2);
    this.#identities.set(client, identity);
    if (!stillValid) return;
    // Tracked before the last check: every sweep asked for from here on sees this client.
    this.#checks.track(client, stillValid, identity.kind === 'operator', readAt);
    if (this.#checks.asked !== asked && !(await stillValid())) throw authError('not_authorized', 5);
  }

  /**
   * Checks every open connection's credential again and closes those revoked (removed or rotated
   * agent credentials; operators logged out, expired, removed or whose role changed). Runs every
   * `revalidateEveryMs`; the server also calls it when it revokes something itself. Resolves to
   * how many connections it closed.
   */
  revalidate(): Promise<number> {
    return this.#checks.revalidate();
  }

  #dispatch(packet: PublishPacket, client: Client | null): void {
    if (packet.topic.startsWith('$SYS')) return;
    const message: BrokerMessage = {
      topic: packet.topic,
      payload: payloadBytes(packet.payload),
      publisher: client ? (this.#identities.get(client) ?? null) : null,
      receivedAt: this.#now(),
    };
    for (const { filter, handler } of this.#handlers) {
      if (!topicMatches(filter, message.topic)) continue;
      try {
        handler(message);
      } catch (error) {
        log.error({ filter, topic: message.topic, err: error }, 'a message handler failed');
      }
    }
  }

  publish(topic: string, payload: Uint8Array, qos: 0 | 1 = 1): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#aedes.publish(
        {
          cmd: 'publish',
          topic,
          payload: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
          qos,
          retain: false,
          dup: false,
        },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }

  onMessage(filter: string, handler: MessageHandler): () => void {
    const entry = { filter, handler };
    this.#handlers.add(entry);
    return () => this.#handlers.delete(entry);
  }

  /** MQTT over TCP for agents (broker-listeners.ts). */
  listenTcp(host: string, port: number): Promise<AddressInfo> {
    return this.#listeners.listenTcp(host, port);
  }

  /** MQTT over WebSocket at `/mqtt` on the console's HTTP server (broker-listeners.ts). */
  attachWebSocket(
    server: HttpServer,
    authenticate: (request: IncomingMessage) => Promise<BrokerIdentity | null>,
  ): void {
    this.#listeners.attachWebSocket(server, authenticate);
  }

  /** Hands a connection to aedes, held to the send limits; `socket` is a WebSocket's transport. */
  #handle(connection: Duplex, request?: IncomingMessage, socket?: Socket): void {
    const client = this.#aedes.handle(connection, request);
    this.#queued.set(client, () => queuedBytes(connection, socket));
    applySendLimits(connection, this.#sendLimits, (reason) => {
      log.warn(
        { code: 'SLOW_CLIENT', clientId: client.id ?? '', reason },
        'disconnected an MQTT client that was not reading what it subscribed to',
      );
    });
  }

  /** Bytes the process holds for a connected client (0 when it keeps up); undefined when no such client is connected. */
  queuedBytes(clientId: string): number | undefined {
    const client = this.#connected(clientId);
    return client ? (this.#queued.get(client)?.() ?? 0) : undefined;
  }

  #connected(clientId: string): Client | undefined {
    return clientsOf(this.#aedes)[clientId];
  }

  get connectedClients(): number {
    return this.#aedes.connectedClients;
  }

  /** Authenticated connections by kind: agents (TCP or WebSocket) and consoles (operators on /mqtt). */
  connectionsByKind(): { agent: number; console: number } {
    const counts = { agent: 0, console: 0 };
    for (const client of Object.values(clientsOf(this.#aedes))) {
      const identity = client && this.#identities.get(client);
      if (identity) counts[identity.kind === 'agent' ? 'agent' : 'console'] += 1;
    }
    return counts;
  }

  /** Open connections per agent, in one pass over the connected clients (the Agents screen's list). */
  agentConnectionCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const client of Object.values(clientsOf(this.#aedes))) {
      const identity = client && !client.closed ? this.#identities.get(client) : undefined;
      if (identity?.kind === 'agent') counts.set(identity.agentId, (counts.get(identity.agentId) ?? 0) + 1);
    }
    return counts;
  }

  /** Open connections authenticated as this agent. */
  agentConnections(agentId: string): number {
    let count = 0;
    for (const client of Object.values(clientsOf(this.#aedes))) {
      const identity = client && !client.closed ? this.#identities.get(client) : undefined;
      if (identity?.kind === 'agent' && identity.agentId === agentId) count += 1;
    }
    return count;
  }

  /**
   * Takes no new connection and ends the consoles' WebSockets (an HTTP server's close waits for
   * its upgraded sockets); agents connected over TCP stay until close().
   */
  async stopListening(): Promise<void> {
    await this.#listeners.stopListening();
  }

  async close(): Promise<void> {
    clearInterval(this.#revalidateTimer);
    await this.stopListening();
    await new Promise<void>((resolve) => this.#aedes.close(() => resolve()));
    await this.#listeners.tcpClosed();
  }
}

/**
 * The size cap of the packet's topic (decision AOR 20), then the agent's publish quota
 * (decisions-server.md §45): the refusal's reason, or undefined. Refused like an ACL denial: an
 * MQTT 5 client gets PUBACK 0x87 with the reason as its Reason String, a 3.1.1 client is
 * disconnected (aedes' answer to any refused publish; 3.1.1 has no negative acknowledgement).
 */
function overLimit(
  identity: BrokerIdentity,
  packet: PublishPacket,
  quotas: PublishQuotas | undefined,
): string | undefined {
  const bytes = Buffer.byteLength(packet.payload);
  const size = checkPayloadSize(packet.topic, bytes);
  if (!size.ok) return size.error.code;
  if (!quotas || identity.kind !== 'agent') return undefined;
  const quota = quotas.take(identity.agentId, bytes);
  return quota.ok ? undefined : quota.reason;
}
