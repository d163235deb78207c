// What both runtimes (runtime.ts with the embedded broker, runtime-external.ts with MQTT_URL) are
// made of besides their broker: the HTTP listener, the console's /mqtt authentication, the audit
// of operators' publishes, and the work that runs once per cluster.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { parseTopic } from '@shared/aor/topics';
import { createApp } from './app';
import type { Clock } from './clock';
import type { Config } from './config';
import { DidVerifier } from './crypto/node-verifier';
import { startBridge } from './external/start-bridge';
import { ConfigError } from './config';
import type { StartWork } from './cluster/run-once';
import type { RelayBridgeOptions } from './external/relay-bridge';
import type { Gateway } from './gateway/gateway';
import { isAllowedHost, misdirected, type AllowedHosts } from './http/host-check';
import { DEFAULT_LISTEN_LIMITS, type ListenLimits } from './http/limits';
import { sessionFromCookieHeader } from './http/session';
import type { BrokerIdentity } from './mqtt/acl';
import type { BrokerMessage, BrokerPort } from './mqtt/broker-port';
import { NegotiationService } from './negotiation/negotiation-service';
import { startNegotiationSweeper } from './negotiation/negotiation-sweeper';
import { createRelayServices, watchStoreHead, type RelayServices } from './relay/relay-services';
import { startThreadSweeper } from './relay/thread-sweeper';
import { PresenceTracker } from './rooms/presence-tracker';
import { startRetentionSweeper } from './rooms/retention-sweeper';
import type { RoomRegistry } from './rooms/room-registry';
import type { GuidedDemoSlot } from './routes/demo';
import type { Store } from './store/store';

export interface RunningSwitchboard {
  readonly url: string;
  readonly mqttUrl: string;
  readonly http: AddressInfo;
  readonly store: Store;
  /** aedes in this process, or the client of the broker at MQTT_URL. */
  readonly broker: BrokerPort;
  readonly gateway: Gateway;
  readonly rooms: RoomRegistry;
  /** The Agora relay, its long-poll feed and the directory. */
  readonly relay: RelayServices;
  /** Whether this instance runs the cluster's sweepers and demo agents (cluster/run-once.ts). */
  readonly cluster: { readonly leading: boolean };
  close(): Promise<void>;
}

export interface StartOptions {
  readonly clock?: Clock;
  /** Tuning of the external-services bridge (tests shorten its backoff and polls). */
  readonly bridge?: Partial<RelayBridgeOptions>;
}

/**
 * What every instance builds around its broker and gateway: presence, the Agora relay,
 * negotiations, the external-services bridge, and the HTTP app over all of them. `brokerDown`
 * is the readiness check's word on the broker (null while it is up).
 */
export async function assembleServices(
  config: Config,
  options: StartOptions,
  parts: {
    readonly store: Store; readonly clock: Clock; readonly rooms: RoomRegistry; readonly broker: BrokerPort; readonly gateway: Gateway;
    /** Checks the consoles' open /mqtt sockets again (after a logout, say). */
    readonly sessionsChanged?: () => void;
  },
  brokerDown: () => string | null,
) {
  const { store, clock, rooms, broker, gateway } = parts;
  const presence = new PresenceTracker(broker, () => clock.now());
  const relay = createRelayServices({ store: store.relay, clock, presence });
  const negotiations = new NegotiationService({ store: store.negotiations, clock, verifier: new DidVerifier() });
  const bridge = await startBridge(store, clock, config, options.bridge);
  const guidedDemo: GuidedDemoSlot = { port: undefined };
  const app = createApp({
    staticDir: config.staticDir,
    store,
    ...(config.limits ? { limits: config.limits } : {}),
    clock,
    rooms: { store, clock, rooms, presence, gateway },
    relay: { services: relay, demo: config.demo, demoSeed: config.demoSeed },
    negotiations,
    readiness: { broker: brokerDown },
    bridge,
    guidedDemo,
    ...(parts.sessionsChanged ? { sessionsChanged: parts.sessionsChanged } : {}),
    ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
  });
  return { presence, relay, negotiations, bridge, guidedDemo, app };
}

export type HttpListener = { readonly server: ServerType; readonly address: AddressInfo };

/** The HTTP listener, held to the request timeout and the per-address connection cap (decisions-server.md §44). */
export function listenHttp(app: ReturnType<typeof createApp>, host: string, port: number, limits: Partial<ListenLimits> = {}): Promise<HttpListener> {
  const requestTimeout = limits.requestTimeoutMs ?? DEFAULT_LISTEN_LIMITS.requestTimeoutMs;
  const perAddress = limits.connectionsPerAddress ?? DEFAULT_LISTEN_LIMITS.connectionsPerAddress;
  return new Promise((resolve, reject) => {
    // Headers within the lesser of the request timeout and 10 s. A long-poll is not cut: its
    // request is received at once, and the wait is its response.
    const server = serve(
      {
        fetch: app.fetch,
        hostname: host,
        port,
        serverOptions: {
          requestTimeout,
          headersTimeout: Math.min(requestTimeout, 10_000),
          // Node checks both timeouts on this interval (30 s by default, which would let a slow client run late).
          connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeout / 4))),
        },
      },
      (address) => resolve({ server, address }),
    );
    capConnectionsPerAddress(server as HttpServer, perAddress);
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new ConfigError(`port ${port} on ${host} is taken; set PORT to a free port (or 0 for any).`));
      else if (error.code === 'EACCES') reject(new ConfigError(`not allowed to listen on ${host}:${port}; set PORT above 1023 or HOST.`));
      else reject(new ConfigError(`cannot listen on ${host}:${port}: ${error.message}`));
    });
  });
}

/** Counts each address's open sockets and destroys a new one past `max` before any byte is read. */
function capConnectionsPerAddress(server: HttpServer, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Stops listening and ends every connection, long-polls and keep-alive sockets included: a peer
 * polling this server (another instance's bridge) would otherwise keep reusing a kept-alive
 * socket served by a process whose store is already closed.
 */
export async function closeHttp(server: ServerType): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  (server as HttpServer).closeAllConnections();
  await closed;
}

/** A listener's address as a URL's host part (IPv6 in brackets). */
export const urlHost = (address: AddressInfo) => (address.family === 'IPv6' ? `[${address.address}]` : address.address);

/**
 * Every instance's own: the store-head watch (its long-polls) and the external-services bridge
 * (idempotent by envelope id, and its status board is this instance's); returns how to stop them.
 */
export function startRelayTimers(relay: RelayServices, bridge: { stop(): Promise<void> }): () => void {
  const stopWatch = watchStoreHead(relay);
  return () => {
    void bridge.stop();
    stopWatch();
    relay.feed.close();
  };
}

/**
 * What runs once per cluster (cluster/run-once.ts): the sweepers (expired grants, timed-out
 * threads → ERROR, valid_until → EXPIRED, history beyond a room's retention) and the demo agents,
 * started in order and stopped in reverse.
 */
export function onceOnlyWork(parts: { gateway: Gateway; relay: RelayServices; clock: Clock; negotiations: NegotiationService; store: Store }, demos: StartWork[]): StartWork {
  return async () => {
    const stops: (() => Promise<void> | void)[] = [
      parts.gateway.sweepEvery(),
      startThreadSweeper(parts.relay.relay.store, parts.clock, parts.relay.relay.timeouts),
      startNegotiationSweeper(parts.negotiations),
      startRetentionSweeper(parts.store.rooms, parts.clock),
    ];
    const stopAll = async () => {
      for (const stop of stops.splice(0).reverse()) await stop();
    };
    try {
      for (const start of demos) stops.push(await start());
    } catch (error) {
      await stopAll();
      throw error;
    }
    return stopAll;
  };
}

/**
 * Who opens /mqtt: the operator of a valid session cookie, from this origin only, under a Host
 * this server is known by (the upgrade does not pass through the app's host check): another Host
 * is refused with 421 as the routes refuse it (decisions-server.md §43).
 */
export function consoleAuthenticator(store: Store, clock: Clock, allowedHosts: AllowedHosts = []): (request: IncomingMessage) => Promise<BrokerIdentity | null> {
  return async (request) => {
    if (!isAllowedHost(request.headers.host, allowedHosts)) throw misdirected(request.headers.host);
    // Same-origin only: a page elsewhere must not ride the operator's cookie into /mqtt.
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${request.headers.host}` && origin !== `https://${request.headers.host}`) return null;
    const session = await sessionFromCookieHeader(store, request.headers.cookie, clock.now());
    return session ? { kind: 'operator', did: session.did, role: session.role } : null;
  };
}

/** Facilitators act over MQTT (say, task, grants); each act lands in the audit log. */
export async function auditOperatorPublish(store: Store, message: BrokerMessage, operator: Extract<BrokerIdentity, { kind: 'operator' }>, cursor: number): Promise<void> {
  const topic = parseTopic(message.topic);
  if (!topic.ok) return;
  let type = 'unknown';
  let messageId: string | null = null;
  let details: Record<string, unknown> = { topic: message.topic, cursor };
  try {
    const envelope = JSON.parse(new TextDecoder().decode(message.payload)) as { id?: string; type?: string; payload?: Record<string, unknown> };
    type = envelope.type ?? type;
    messageId = envelope.id ?? null;
    const p = envelope.payload ?? {};
    details = { ...details, ...pick(p, ['task_id', 'agent_id', 'max_messages', 'expires_at', 'reason', 'goal', 'deadline']) };
    if ('agentId' in topic.value) details.agent_id ??= topic.value.agentId;
  } catch {
    // The ACL already refused operator publishes that are not envelopes.
  }
  await store.access.appendAudit({ at: message.receivedAt, actorDid: operator.did, action: `room.${type}`, roomId: topic.value.roomId, messageId, details });
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}
