// aedes in the server process: MQTT over TCP for agents, MQTT over WebSocket at /mqtt for the
// browser, the §8 ACL enforced on every CONNECT, PUBLISH (wills included) and SUBSCRIBE.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { checkPayloadSize } from '@shared/aor/payload-size';
import { mayPublish, maySubscribe, type BrokerIdentity, type PublishRequest } from './acl';
import type { BrokerMessage, BrokerPort, MessageHandler } from './broker-port';
import { storageFailure } from '../store/storage-errors';
import type { PublishQuotas } from './publish-quotas';
import { applySendLimits, DEFAULT_SEND_LIMITS, queuedBytes, type SendLimits } from './send-limits';
import { topicMatches } from './topic-filter';

/** Generous hard cap per packet; envelopes over 256 KiB are refused with a coded reject above it. */
export const MAX_PACKET_BYTES = 512 * 1024;

export interface EmbeddedBrokerOptions {
  /** Checks an agent's MQTT username/password against the stored credential. */
  readonly verifyAgent: (agentId: string, password: string) => Promise<boolean>;
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
}

/** A refusal the broker expects (e.g. a room nobody created): refused quietly, not logged as a fault. */
export class RefusedPublish extends Error {
  override readonly name: string = 'RefusedPublish';
}

const authError = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/** A summary of an operator's envelope, which the ACL needs to check type and sender. */
function envelopeSummary(payload: Buffer): PublishRequest['envelope'] {
  try {
    const parsed = JSON.parse(payload.toString('utf8')) as { type?: unknown; from?: { kind?: unknown; id?: unknown } };
    if (typeof parsed.type !== 'string' || typeof parsed.from?.kind !== 'string' || typeof parsed.from.id !== 'string') return undefined;
    return { type: parsed.type, fromKind: parsed.from.kind, fromId: parsed.from.id };
  } catch {
    return undefined;
  }
}

export class EmbeddedBroker implements BrokerPort {
  readonly #aedes: Aedes;
  readonly #identities = new WeakMap<Client, BrokerIdentity>();
  /** Identities that authenticated a WebSocket upgrade, until its CONNECT arrives. */
  readonly #upgradeIdentities = new WeakMap<IncomingMessage, BrokerIdentity>();
  readonly #handlers = new Set<{ filter: string; handler: MessageHandler }>();
  readonly #now: () => number;
  readonly #sendLimits: SendLimits;
  /** Per connected client: the bytes the process holds for it (send-limits.ts). */
  readonly #queued = new WeakMap<Client, () => number>();
  #tcp: NetServer | undefined;
  #wss: WebSocketServer | undefined;

  private constructor(aedes: Aedes, now: () => number, sendLimits: SendLimits) {
    this.#aedes = aedes;
    this.#now = now;
    this.#sendLimits = sendLimits;
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
        const identity = ref.broker!.#identities.get(client);
        if (!identity) return callback(new Error('not_authenticated'));
        const verdict = mayPublish(identity, {
          topic: packet.topic,
          retain: packet.retain,
          ...(identity.kind === 'operator' ? { envelope: envelopeSummary(packet.payload as Buffer) } : {}),
        });
        if (!verdict.ok) return callback(new Error(verdict.reason));
        const refused = overLimit(identity, packet, options.publishQuotas);
        if (refused) return callback(new Error(refused));
        if (!options.beforeRoute) return callback(null);
        const message = { topic: packet.topic, payload: toBytes(packet.payload), publisher: identity, receivedAt: now() };
        Promise.resolve(options.beforeRoute(message)).then(
          () => callback(null),
          (error: unknown) => {
            if (error instanceof RefusedPublish) return callback(new Error(error.message));
            const storage = storageFailure(error);
            if (storage) console.error(`switchboard: ${storage.code}: refused a publish on ${packet.topic} that could not be recorded.`);
            else console.error('Refused a publish that could not be recorded:', error);
            callback(new Error('not_recorded'));
          },
        );
      },
      authorizeSubscribe: (client, subscription, callback) => {
        const identity = ref.broker!.#identities.get(client);
        // A refused filter gets a failure return code in SUBACK; the connection stays up.
        if (!identity || !maySubscribe(identity, subscription.topic).ok) return callback(null, null);
        callback(null, subscription);
      },
    });
    const broker = new EmbeddedBroker(aedes, now, sendLimits);
    ref.broker = broker;
    aedes.on('publish', (packet, client) => broker.#dispatch(packet, client));
    aedes.on('clientDisconnect', (client) => {
      const identity = broker.#identities.get(client);
      if (identity) options.onClientGone?.(identity, client.id);
    });
    return broker;
  }

  async #authenticate(client: Client, username: string | undefined, password: Buffer | undefined, options: EmbeddedBrokerOptions) {
    let identity: BrokerIdentity | undefined;
    if (client.req) {
      // WebSocket: the upgrade was authenticated by the operator's session cookie.
      identity = this.#upgradeIdentities.get(client.req);
      if (!identity) throw authError('not_authorized', 5);
    } else {
      if (!username || !password) throw authError('bad_username_or_password', 4);
      if (!(await options.verifyAgent(username, password.toString('utf8')))) throw authError('bad_username_or_password', 4);
      identity = { kind: 'agent', agentId: username };
    }
    // A client id in use by another identity cannot be taken over (MQTT would disconnect the
    // current holder): refuse the newcomer instead.
    const holder = this.#connected(client.id);
    const holderIdentity = holder ? this.#identities.get(holder) : undefined;
    if (holderIdentity && !sameIdentity(holderIdentity, identity)) throw authError('identifier_rejected', 2);
    this.#identities.set(client, identity);
  }

  #dispatch(packet: PublishPacket, client: Client | null): void {
    if (packet.topic.startsWith('$SYS')) return;
    const message: BrokerMessage = {
      topic: packet.topic,
      payload: toBytes(packet.payload),
      publisher: client ? (this.#identities.get(client) ?? null) : null,
      receivedAt: this.#now(),
    };
    for (const { filter, handler } of this.#handlers) {
      if (!topicMatches(filter, message.topic)) continue;
      try {
        handler(message);
      } catch (error) {
        console.error(`Handler for ${filter} failed on ${message.topic}:`, error);
      }
    }
  }

  publish(topic: string, payload: Uint8Array, qos: 0 | 1 = 1): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#aedes.publish(
        { cmd: 'publish', topic, payload: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), qos, retain: false, dup: false },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }

  onMessage(filter: string, handler: MessageHandler): () => void {
    const entry = { filter, handler };
    this.#handlers.add(entry);
    return () => this.#handlers.delete(entry);
  }

  /** MQTT over TCP for agents. Nagle's delay would add ~13–24 ms per hop, so it is off. */
  listenTcp(host: string, port: number): Promise<AddressInfo> {
    const server = createServer((socket: Socket) => {
      socket.setNoDelay(true);
      this.#handle(socket);
    });
    this.#tcp = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    });
  }

  /**
   * MQTT over WebSocket at `/mqtt` on the console's HTTP server. `authenticate` resolves the
   * operator from the upgrade request (session cookie, same origin); without one the upgrade is
   * refused before any MQTT byte is read.
   */
  attachWebSocket(server: HttpServer, authenticate: (request: IncomingMessage) => Promise<BrokerIdentity | null>): void {
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PACKET_BYTES, handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false) });
    this.#wss = wss;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/mqtt') return; // other upgrade handlers may claim it
      authenticate(request).then(
        (identity) => {
          if (!identity) return refuseUpgrade(socket, 401, 'Unauthorized');
          (socket as Socket).setNoDelay?.(true);
          wss.handleUpgrade(request, socket, head, (ws) => {
            this.#upgradeIdentities.set(request, identity);
            const stream = createWebSocketStream(ws);
            stream.on('error', () => stream.destroy());
            // The stream hands ws one frame at a time: the rest waits in the stream's queue.
            this.#handle(stream, request, socket as Socket);
          });
        },
        () => refuseUpgrade(socket, 500, 'Internal Server Error'),
      );
    });
  }

  /** Hands a connection to aedes, held to the send limits; `socket` is a WebSocket's transport. */
  #handle(connection: Duplex, request?: IncomingMessage, socket?: Socket): void {
    const client = this.#aedes.handle(connection, request);
    this.#queued.set(client, () => queuedBytes(connection, socket));
    applySendLimits(connection, this.#sendLimits, (reason) => {
      console.error(`switchboard: SLOW_CLIENT: disconnected MQTT client ${JSON.stringify(client.id ?? '')} (${reason}); it was not reading what it subscribed to.`);
    });
  }

  /** Bytes the process holds for a connected client (0 when it keeps up); undefined when no such client is connected. */
  queuedBytes(clientId: string): number | undefined {
    const client = this.#connected(clientId);
    return client ? (this.#queued.get(client)?.() ?? 0) : undefined;
  }

  /** `clients` is aedes' public registry of connected clients by id (not in its typings). */
  #connected(clientId: string): Client | undefined {
    return (this.#aedes as unknown as { clients: Record<string, Client | undefined> }).clients[clientId];
  }

  get connectedClients(): number {
    return this.#aedes.connectedClients;
  }

  async close(): Promise<void> {
    for (const client of this.#wss?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => this.#wss?.close(() => resolve()) ?? resolve());
    // A TCP server's close waits for every open connection to end, and connected agents never
    // end theirs: stop listening, let aedes disconnect every client, then wait (issue 9 faults).
    const tcpClosed = new Promise<void>((resolve) => (this.#tcp ? this.#tcp.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => this.#aedes.close(() => resolve()));
    await tcpClosed;
  }
}

/**
 * The size cap of the packet's topic (decision AOR 20), then the agent's publish quota
 * (decisions-server.md §38): the refusal's reason, or undefined. Refused like an ACL denial: an
 * MQTT 5 client gets PUBACK 0x87 with the reason as its Reason String, a 3.1.1 client is
 * disconnected (aedes' answer to any refused publish; 3.1.1 has no negative acknowledgement).
 */
function overLimit(identity: BrokerIdentity, packet: PublishPacket, quotas: PublishQuotas | undefined): string | undefined {
  const bytes = Buffer.byteLength(packet.payload);
  const size = checkPayloadSize(packet.topic, bytes);
  if (!size.ok) return size.error.code;
  if (!quotas || identity.kind !== 'agent') return undefined;
  const quota = quotas.take(identity.agentId, bytes);
  return quota.ok ? undefined : quota.reason;
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function sameIdentity(a: BrokerIdentity, b: BrokerIdentity): boolean {
  if (a.kind === 'agent' && b.kind === 'agent') return a.agentId === b.agentId;
  if (a.kind === 'operator' && b.kind === 'operator') return a.did === b.did;
  return false;
}

function toBytes(payload: Buffer | string): Uint8Array {
  return typeof payload === 'string' ? new TextEncoder().encode(payload) : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
}
