// aedes in the server process: MQTT over TCP for agents, MQTT over WebSocket at /mqtt for the
// browser, the §8 ACL enforced on every CONNECT, PUBLISH (wills included) and SUBSCRIBE, each
// client id bound to its identity (client-ids.ts), and revoked credentials ending connections.
import { STATUS_CODES, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { parseEnvelope } from '@shared/aor/envelope';
import { checkPayloadSize } from '@shared/aor/payload-size';
import { isCodedError } from '@shared/errors';
import { statusForCode } from '../http/errors';
import { mayPublish, maySubscribe, type BrokerIdentity, type PublishRequest } from './acl';
import { mayUseClientId } from './client-ids';
import { DEFAULT_REVALIDATE_MS, type StillValid } from './revalidate';
import type { BrokerMessage, BrokerPort, MessageHandler } from './broker-port';
import { storageFailure } from '../store/storage-errors';
import type { PublishQuotas } from './publish-quotas';
import { applySendLimits, DEFAULT_SEND_LIMITS, queuedBytes, type SendLimits } from './send-limits';
import { topicMatches } from './topic-filter';

/** Generous hard cap per packet; envelopes over 256 KiB are refused with a coded reject above it. */
export const MAX_PACKET_BYTES = 512 * 1024;

export interface EmbeddedBrokerOptions {
  /**
   * Checks an agent's MQTT username/password against the stored credential. A function accepts
   * the agent and is asked again while the agent stays connected: false then ends the connection
   * (the credential was removed or rotated). `true` accepts it for as long as it stays.
   */
  readonly verifyAgent: (agentId: string, password: string) => Promise<boolean | StillValid>;
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
}

/** A refusal the broker expects (e.g. a room nobody created): refused quietly, not logged as a fault. */
export class RefusedPublish extends Error {
  override readonly name: string = 'RefusedPublish';
}

const authError = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/**
 * A summary of an operator's envelope, which the ACL needs to check type, sender and room. Read
 * by the strict reader every AOR message goes through (duplicate keys refused, schema checked):
 * what the ACL checks is then what every later reader sees.
 */
function envelopeSummary(payload: Buffer | string): PublishRequest['envelope'] {
  const parsed = parseEnvelope(typeof payload === 'string' ? payload : toBytes(payload));
  if (!parsed.ok) return undefined;
  const envelope = parsed.value;
  return { type: envelope.type, roomId: envelope.room_id, fromKind: envelope.from.kind, fromId: envelope.from.id };
}

interface LiveCheck {
  readonly stillValid: StillValid;
  /** An operator's publish is checked every time; an agent's relies on a check this recent. */
  readonly everyPublish: boolean;
  checkedAt: number;
}

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
  /** Per connected client whose credential can be revoked: how to check it again. */
  readonly #liveChecks = new WeakMap<Client, LiveCheck>();
  readonly #revalidateEveryMs: number;
  #revalidating: Promise<number> | undefined;
  #revalidateTimer: NodeJS.Timeout | undefined;
  #tcp: NetServer | undefined;
  #wss: WebSocketServer | undefined;
  #listenersClosed: { readonly ws: Promise<void>; readonly tcp: Promise<void> } | undefined;

  private constructor(aedes: Aedes, now: () => number, sendLimits: SendLimits, revalidateEveryMs: number) {
    this.#aedes = aedes;
    this.#now = now;
    this.#sendLimits = sendLimits;
    this.#revalidateEveryMs = revalidateEveryMs;
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
        // A revoked credential publishes nothing, even before the sweep closes its connection.
        const recheck = broker.#recheckBeforePublish(client);
        if (!recheck) return broker.#authorizePublish(identity, packet, callback, options);
        recheck.then(
          (valid) =>
            valid ? broker.#authorizePublish(identity, packet, callback, options) : broker.#revoke(client, callback),
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
    const broker = new EmbeddedBroker(aedes, now, sendLimits, options.revalidateEveryMs ?? DEFAULT_REVALIDATE_MS);
    ref.broker = broker;
    broker.#revalidateTimer = setInterval(() => void broker.revalidate(), broker.#revalidateEveryMs).unref();
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
      payload: toBytes(packet.payload),
      publisher: identity,
      receivedAt: this.#now(),
    };
    Promise.resolve(options.beforeRoute(message)).then(
      () => callback(null),
      (error: unknown) => {
        if (error instanceof RefusedPublish) return callback(new Error(error.message));
        const storage = storageFailure(error);
        if (storage)
          console.error(
            `switchboard: ${storage.code}: refused a publish on ${packet.topic} that could not be recorded.`,
          );
        else console.error('Refused a publish that could not be recorded:', error);
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
    if (stillValid)
      this.#liveChecks.set(client, { stillValid, everyPublish: identity.kind === 'operator', checkedAt: this.#now() });
  }

  /** Undefined when the client's last check still stands for this publish, else the check. */
  #recheckBeforePublish(client: Client): Promise<boolean> | undefined {
    const live = this.#liveChecks.get(client);
    if (!live) return undefined;
    const now = this.#now();
    if (!live.everyPublish && now - live.checkedAt < this.#revalidateEveryMs) return undefined;
    return live.stillValid().then((valid) => {
      if (valid) live.checkedAt = now;
      return valid;
    });
  }

  #revoke(client: Client, callback?: (error: Error) => void): void {
    callback?.(new Error('not_authorized'));
    console.log(
      `switchboard: disconnected MQTT client ${JSON.stringify(client.id ?? '')}: its credential or session was revoked.`,
    );
    client.close();
  }

  /**
   * Checks every open connection's credential again and closes those revoked (removed or rotated
   * agent credentials; operators logged out, expired, removed or whose role changed). Runs every
   * `revalidateEveryMs`; the server also calls it when it revokes something itself. Resolves to
   * how many connections it closed.
   */
  revalidate(): Promise<number> {
    this.#revalidating ??= this.#revalidateAll().finally(() => (this.#revalidating = undefined));
    return this.#revalidating;
  }

  async #revalidateAll(): Promise<number> {
    const clients = Object.values((this.#aedes as unknown as { clients: Record<string, Client | undefined> }).clients);
    const verdicts = await Promise.all(
      clients.map(async (client) => {
        const live = client && this.#liveChecks.get(client);
        if (!live) return false;
        const now = this.#now();
        // A store that cannot answer revokes nothing; the publish path refuses meanwhile.
        const valid = await live.stillValid().catch(() => true);
        if (valid) live.checkedAt = now;
        else if (!client.closed) this.#revoke(client);
        return !valid;
      }),
    );
    return verdicts.filter(Boolean).length;
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
   * refused before any MQTT byte is read (401), or with the status of the CodedError it throws
   * (421 for a Host this server does not answer to). It is asked again about the same request while the
   * connection is open: once it answers otherwise (logged out, expired, another role), the
   * connection ends.
   */
  attachWebSocket(
    server: HttpServer,
    authenticate: (request: IncomingMessage) => Promise<BrokerIdentity | null>,
  ): void {
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_PACKET_BYTES,
      handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false),
    });
    this.#wss = wss;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/mqtt') return; // other upgrade handlers may claim it
      authenticate(request).then(
        (identity) => {
          if (!identity) return refuseUpgrade(socket, 401, 'Unauthorized');
          (socket as Socket).setNoDelay?.(true);
          wss.handleUpgrade(request, socket, head, (ws) => {
            const stillValid: StillValid = async () => {
              const again = await authenticate(request);
              return again !== null && sameGrant(again, identity);
            };
            this.#upgradeIdentities.set(request, { identity, stillValid });
            const stream = createWebSocketStream(ws);
            stream.on('error', () => stream.destroy());
            // The stream hands ws one frame at a time: the rest waits in the stream's queue.
            this.#handle(stream, request, socket as Socket);
          });
        },
        (error: unknown) => {
          // A coded refusal (a Host this server does not answer to: 421) is answered as the HTTP routes answer it.
          if (!isCodedError(error)) return refuseUpgrade(socket, 500, 'Internal Server Error');
          const status = statusForCode(error.code);
          refuseUpgrade(
            socket,
            status,
            STATUS_CODES[status] ?? 'Refused',
            JSON.stringify({ code: error.code, message: error.message }),
          );
        },
      );
    });
  }

  /** Hands a connection to aedes, held to the send limits; `socket` is a WebSocket's transport. */
  #handle(connection: Duplex, request?: IncomingMessage, socket?: Socket): void {
    const client = this.#aedes.handle(connection, request);
    this.#queued.set(client, () => queuedBytes(connection, socket));
    applySendLimits(connection, this.#sendLimits, (reason) => {
      console.error(
        `switchboard: SLOW_CLIENT: disconnected MQTT client ${JSON.stringify(client.id ?? '')} (${reason}); it was not reading what it subscribed to.`,
      );
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

  /**
   * Takes no new connection and ends the consoles' WebSockets (an HTTP server's close waits for
   * its upgraded sockets); agents connected over TCP stay until close().
   */
  async stopListening(): Promise<void> {
    this.#listenersClosed ??= this.#closeListeners();
    await this.#listenersClosed.ws;
  }

  #closeListeners(): { ws: Promise<void>; tcp: Promise<void> } {
    for (const client of this.#wss?.clients ?? []) client.terminate();
    const ws = new Promise<void>((resolve) => this.#wss?.close(() => resolve()) ?? resolve());
    // A TCP server's close waits for every open connection to end, and connected agents never
    // end theirs: stop listening now, and close() lets aedes disconnect every client, then waits
    // (decisions-server.md §22).
    const tcp = ws.then(
      () => new Promise<void>((resolve) => (this.#tcp ? this.#tcp.close(() => resolve()) : resolve())),
    );
    return { ws, tcp };
  }

  async close(): Promise<void> {
    clearInterval(this.#revalidateTimer);
    await this.stopListening();
    await new Promise<void>((resolve) => this.#aedes.close(() => resolve()));
    await this.#listenersClosed!.tcp;
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

function refuseUpgrade(socket: Duplex, status: number, text: string, json = ''): void {
  const type = json ? 'Content-Type: application/json\r\n' : '';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
}

function sameIdentity(a: BrokerIdentity, b: BrokerIdentity): boolean {
  if (a.kind === 'agent' && b.kind === 'agent') return a.agentId === b.agentId;
  if (a.kind === 'operator' && b.kind === 'operator') return a.did === b.did;
  return false;
}

/** The same identity with the same rights (an operator's role included). */
function sameGrant(a: BrokerIdentity, b: BrokerIdentity): boolean {
  return sameIdentity(a, b) && (a.kind !== 'operator' || b.kind !== 'operator' || a.role === b.role);
}

/** Whether aedes chose the client's id (it sent an empty one); `_assignedClientId` is not in aedes' typings. */
function isAssignedId(client: Client): boolean {
  const assigned = (client as unknown as { _assignedClientId?: string })._assignedClientId;
  return assigned !== undefined && assigned === client.id;
}

function toBytes(payload: Buffer | string): Uint8Array {
  return typeof payload === 'string'
    ? new TextEncoder().encode(payload)
    : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
}
