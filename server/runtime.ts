// One Switchboard process: storage, the embedded MQTT broker (TCP for agents, WebSocket at /mqtt
// for consoles), the gateway, presence and the HTTP app. `npm start` runs it through main.ts;
// integration tests start it in-process or as a child process.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { parseTopic } from '@shared/aor/topics';
import { createApp } from './app';
import { generateAgentPassword, hashPassword, verifyPassword } from './auth/password';
import { systemClock, type Clock } from './clock';
import { ConfigError, type Config } from './config';
import { isCodedError } from '@shared/errors';
import { DEMO_PACES } from './demo/demo-config';
import { startDemo, type DemoHandle } from './demo/start-demo';
import { Gateway, isCandidate } from './gateway/gateway';
import { lateGateway } from './gateway/late-gateway';
import { sessionFromCookieHeader } from './http/session';
import type { BrokerIdentity } from './mqtt/acl';
import type { BrokerMessage, BrokerPort } from './mqtt/broker-port';
import { ConsoleBridge } from './mqtt/console-bridge';
import { EmbeddedBroker } from './mqtt/embedded-broker';
import { ExternalBroker } from './mqtt/external-broker';
import { agentCandidateTopic, DynsecAdmin, GATEWAY_SHARE_GROUP } from './mqtt/mosquitto-dynsec';
import { HistoryRecorder, recordOnArrival } from './rooms/history-recorder';
import { PresenceTracker } from './rooms/presence-tracker';
import { RoomRegistry } from './rooms/room-registry';
import { openStore } from './store/open-store';
import { startAgoraDemo, type AgoraDemoHandle } from './demo/agora/agora-demo';
import { startOacopDemo, type OacopDemoHandle } from './demo/oacop/oacop-demo';
import { createRelayServices, watchStoreHead, type RelayServices } from './relay/relay-services';
import { startThreadSweeper } from './relay/thread-sweeper';
import type { Store } from './store/store';
import { DidVerifier } from './crypto/node-verifier';
import { NEGOTIATION_PACES, startNegotiationDemo, type NegotiationDemoHandle } from './demo/negotiation/negotiation-demo';
import type { GuidedDemoSlot } from './routes/demo';
import { NegotiationService } from './negotiation/negotiation-service';
import { startNegotiationSweeper } from './negotiation/negotiation-sweeper';
import { startBridge } from './external/start-bridge';
import { startRunOnce, type StartWork } from './cluster/run-once';
import type { RelayBridgeOptions } from './external/relay-bridge';

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

const DEFAULT_MQTT_PORT = 1883;

/** MQTT_PORT unset: 1883 when free, else any free port. Set and taken: a one-line ConfigError. */
async function listenForAgents(broker: EmbeddedBroker, host: string, configured: number | undefined): Promise<AddressInfo> {
  try {
    return await broker.listenTcp(host, configured ?? DEFAULT_MQTT_PORT);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE') throw new ConfigError(`cannot listen for MQTT on ${host}:${configured ?? DEFAULT_MQTT_PORT}: ${(error as Error).message}`);
    if (configured !== undefined) throw new ConfigError(`MQTT_PORT ${configured} on ${host} is taken; set MQTT_PORT to a free port (or 0 for any).`);
    return broker.listenTcp(host, 0);
  }
}

function listenHttp(app: ReturnType<typeof createApp>, host: string, port: number): Promise<{ server: ServerType; address: AddressInfo }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (address) => resolve({ server, address }));
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new ConfigError(`port ${port} on ${host} is taken; set PORT to a free port (or 0 for any).`));
      else if (error.code === 'EACCES') reject(new ConfigError(`not allowed to listen on ${host}:${port}; set PORT above 1023 or HOST.`));
      else reject(new ConfigError(`cannot listen on ${host}:${port}: ${error.message}`));
    });
  });
}

/**
 * Stops listening and ends every connection, long-polls and keep-alive sockets included: a peer
 * polling this server (another instance's bridge) would otherwise keep reusing a kept-alive
 * socket served by a process whose store is already closed.
 */
async function closeHttp(server: ServerType): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  (server as HttpServer).closeAllConnections();
  await closed;
}

const urlHost = (address: AddressInfo) => (address.family === 'IPv6' ? `[${address.address}]` : address.address);

export async function startSwitchboard(config: Config, options: StartOptions = {}): Promise<RunningSwitchboard> {
  if (config.mqttExternal) return startWithExternalBroker(config, config.mqttExternal, options);
  const clock = options.clock ?? systemClock;
  const store = await openStore(config);
  const rooms = new RoomRegistry(store);
  const history = new HistoryRecorder(store, rooms);
  // The broker's hooks need presence, and presence needs the broker: a reference filled in below.
  const late: { presence?: PresenceTracker; gateway?: Gateway } = {};

  const broker = await EmbeddedBroker.create({
    now: () => clock.now(),
    ...(config.mqttSendLimits ? { sendLimits: config.mqttSendLimits } : {}),
    verifyAgent: async (agentId, password) => {
      const credential = await store.getAgentCredential(agentId);
      return credential !== undefined && verifyPassword(password, credential.passwordHash);
    },
    beforeRoute: async (message) => {
      if (isCandidate(message)) return late.gateway!.admitCandidate(message);
      const stored = await history.record(message);
      if (message.publisher?.kind === 'operator') await auditOperatorPublish(store, message, message.publisher, stored.cursor);
    },
    onClientGone: (identity) => {
      if (identity.kind === 'agent') late.presence?.disconnected(identity.agentId);
    },
  });

  const gateway = new Gateway({ broker, store, history, now: () => clock.now(), newId: () => `msg_${randomUUID()}`, admitsBeforeRoute: true });
  late.gateway = gateway;
  const presence = new PresenceTracker(broker, () => clock.now());
  late.presence = presence;
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
    // The broker is in this process: if this answers, it is up.
    readiness: { broker: () => null },
    bridge,
    guidedDemo,
  });
  const stopRelay = startRelayTimers(relay, bridge);

  let http: { server: ServerType; address: AddressInfo } | undefined;
  try {
    const mqtt = await listenForAgents(broker, config.host, config.mqttPort);
    http = await listenHttp(app, config.host, config.port);
    broker.attachWebSocket(http.server as HttpServer, consoleAuthenticator(store, clock));
    // Candidates acknowledged before a crash are decided now (server decision 20); the grant
    // sweep runs on the instance that runs the cluster's timers (run-once.ts).
    gateway.start(false);
    await gateway.recover();
    presence.start();
    const address = http.address;
    const onceOnly = await startRunOnce({
      databaseUrl: config.databaseUrl,
      start: onceOnlyWork({ gateway, relay, clock, negotiations }, config.demo ? [
        async () => stopping(await startDemoAgents(config, mqtt, { store, rooms, history, broker, clock })),
        ...httpDemos(config, address, clock, store, guidedDemo),
      ] : []),
    });
    const url = `http://${urlHost(http.address)}:${http.address.port}`;
    const httpServer = http.server;
    return {
      url,
      mqttUrl: `mqtt://${urlHost(mqtt)}:${mqtt.port}`,
      http: http.address,
      store,
      broker,
      gateway,
      rooms,
      relay,
      cluster: onceOnly,
      async close() {
        await onceOnly.stop();
        stopRelay();
        presence.stop();
        await gateway.stop();
        await broker.close();
        await closeHttp(httpServer);
        await store.close();
      },
    };
  } catch (error) {
    stopRelay();
    await broker.close().catch(() => undefined);
    if (http) await new Promise<void>((resolve) => http!.server.close(() => resolve()));
    await store.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Every instance's own: the store-head watch (its long-polls) and the external-services bridge
 * (idempotent by envelope id, and its status board is this instance's); returns how to stop them.
 */
function startRelayTimers(relay: RelayServices, bridge: { stop(): Promise<void> }): () => void {
  const stopWatch = watchStoreHead(relay);
  return () => {
    void bridge.stop();
    stopWatch();
    relay.feed.close();
  };
}

const stopping = (handle: { stop(): Promise<void> | void }) => async () => void (await handle.stop());

/**
 * What runs once per cluster (cluster/run-once.ts): the sweepers (expired grants, timed-out
 * threads → ERROR, valid_until → EXPIRED) and the demo agents, started in order and stopped in
 * reverse.
 */
function onceOnlyWork(parts: { gateway: Gateway; relay: RelayServices; clock: Clock; negotiations: NegotiationService }, demos: StartWork[]): StartWork {
  return async () => {
    const stops: (() => Promise<void> | void)[] = [
      parts.gateway.sweepEvery(),
      startThreadSweeper(parts.relay.relay.store, parts.clock, parts.relay.relay.timeouts),
      startNegotiationSweeper(parts.negotiations),
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

/** The demo agents that speak HTTP to this instance: Agora, RFC 0002 negotiations, OACoP. */
function httpDemos(config: Config, address: AddressInfo, clock: Clock, store: Store, guided: GuidedDemoSlot): StartWork[] {
  return [
    async () => stopping(await startAgoraDemoAgents(config, address, clock)),
    async () => {
      // The guided demo (routes/demo.ts) drives these agents: only the instance running them offers it.
      const negotiation = startNegotiationDemoAgents(config, address, clock, store);
      guided.port = negotiation;
      return async () => {
        guided.port = undefined;
        await negotiation.stop();
      };
    },
    async () => stopping(await startOacopDemoAgents(config, address, clock, store)),
  ];
}

/**
 * The demo's Agora agents talk to this server over HTTP like any agent (loopback to the URL
 * it just bound), with keys that follow from DEMO_SEED.
 */
async function startAgoraDemoAgents(config: Config, address: AddressInfo, clock: Clock): Promise<AgoraDemoHandle> {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const base = `http://${wildcard ? '127.0.0.1' : urlHost(address)}:${address.port}`;
  return startAgoraDemo({ fetch: (input, init) => fetch(input, init), baseUrl: base, seed: config.demoSeed, now: () => clock.now() });
}

/** The demo's OACoP calendar and resource agents, over HTTP like any agent (demo-calendars.ts). */
async function startOacopDemoAgents(config: Config, address: AddressInfo, clock: Clock, store: Store): Promise<OacopDemoHandle> {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const base = `http://${wildcard ? '127.0.0.1' : urlHost(address)}:${address.port}`;
  return startOacopDemo({ fetch: (input, init) => fetch(input, init), baseUrl: base, seed: config.demoSeed, now: () => clock.now(), store, replyDelayMs: DEMO_PACES[config.demoPace].stepDelayMs });
}

/**
 * The demo's negotiating agents (issue 6 item 5) talk RFC 0002 to this server over HTTP, with
 * keys that follow from DEMO_SEED; a restart over the same data does not open them again.
 */
function startNegotiationDemoAgents(config: Config, address: AddressInfo, clock: Clock, store: Store): NegotiationDemoHandle {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const base = `http://${wildcard ? '127.0.0.1' : urlHost(address)}:${address.port}`;
  return startNegotiationDemo({
    fetch: (input, init) => fetch(input, init),
    baseUrl: base,
    seed: config.demoSeed,
    now: () => clock.now(),
    pace: NEGOTIATION_PACES[config.demoPace],
    alreadyRan: async (did) => (await store.negotiations.list({ party: did, limit: 1 })).length > 0,
  });
}

/**
 * The demo agents connect like any agent: over MQTT TCP with their own credentials (rotated at
 * each start, never printed). A scripted facilitator keeps the demo room busy.
 */
async function startDemoAgents(
  config: Config,
  mqtt: AddressInfo,
  parts: { store: Store; rooms: RoomRegistry; history: HistoryRecorder; broker: EmbeddedBroker; clock: Clock },
): Promise<DemoHandle> {
  const { store, rooms, history, broker, clock } = parts;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : urlHost(mqtt);
  return startDemo({
    brokerUrl: `mqtt://${host}:${mqtt.port}`,
    seed: config.demoSeed,
    pace: DEMO_PACES[config.demoPace],
    now: () => clock.now(),
    provisionAgent: async (agentId) => {
      const password = generateAgentPassword();
      await store.putAgentCredential({ agentId, passwordHash: await hashPassword(password), createdAt: clock.now() });
      return password;
    },
    ensureRoom: async (id, name) => void (await rooms.create({ id, name, moderation: 'auto' })),
    publishAsFacilitator: async (topic, envelope) => {
      const payload = new TextEncoder().encode(JSON.stringify(envelope));
      await history.record({ topic, payload, publisher: null, receivedAt: clock.now() });
      await broker.publish(topic, payload, 1);
    },
    observe: (filter, handler) => broker.onMessage(filter, handler),
  });
}

/** Who opens /mqtt: the operator of a valid session cookie, from this origin only. */
function consoleAuthenticator(store: Store, clock: Clock): (request: IncomingMessage) => Promise<BrokerIdentity | null> {
  return async (request) => {
    // Same-origin only: a page elsewhere must not ride the operator's cookie into /mqtt.
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${request.headers.host}` && origin !== `https://${request.headers.host}`) return null;
    const session = await sessionFromCookieHeader(store, request.headers.cookie, clock.now());
    return session ? { kind: 'operator', did: session.did, role: session.role } : null;
  };
}

/** Facilitators act over MQTT (say, task, grants); each act lands in the audit log. */
async function auditOperatorPublish(store: Store, message: BrokerMessage, operator: Extract<BrokerIdentity, { kind: 'operator' }>, cursor: number): Promise<void> {
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
  await store.appendAudit({ at: message.receivedAt, actorDid: operator.did, action: `room.${type}`, roomId: topic.value.roomId, messageId, details });
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

/**
 * MQTT_URL: the gateway, history and presence run over the external broker (Mosquitto 2 with
 * dynamic security, set up by `cli broker setup`). Room messages are stored when they arrive,
 * before any handler sees them (docs/decisions-external-broker.md). Demo agents need the
 * dynamic-security admin (MQTT_ADMIN_*) to be provisioned; without it the demo is off.
 * The console's /mqtt WebSocket is bridged to the broker by the server (mqtt/console-bridge.ts).
 */
async function startWithExternalBroker(config: Config, mqttConfig: NonNullable<Config['mqttExternal']>, options: StartOptions): Promise<RunningSwitchboard> {
  if (!mqttConfig.password) throw new ConfigError('MQTT_PASSWORD is required with MQTT_URL (the server\'s broker credential, from `npm run cli -- broker setup`).');
  const clock = options.clock ?? systemClock;
  const store = await openStore(config);
  const rooms = new RoomRegistry(store);
  const history = new HistoryRecorder(store, rooms);
  const candidates = lateGateway();
  let broker: ExternalBroker;
  try {
    broker = await ExternalBroker.connect({
      url: mqttConfig.url,
      username: mqttConfig.username,
      password: mqttConfig.password,
      clientId: mqttConfig.clientId,
      now: () => clock.now(),
      // Each agent message is recorded and decided by the one instance the broker hands it to.
      shareGroup: GATEWAY_SHARE_GROUP,
      ...recordOnArrival(history, candidates.admitCandidate),
    });
  } catch (error) {
    await store.close().catch(() => undefined);
    if (isCodedError(error)) throw new ConfigError(error.message);
    throw error;
  }
  const gateway = new Gateway({ broker, store, history, now: () => clock.now(), newId: () => `msg_${randomUUID()}`, admitsBeforeRoute: true, confirmHandOver: true });
  candidates.attach(gateway);
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
    readiness: { broker: () => (broker.connected ? null : 'not connected to the MQTT broker (MQTT_URL)') },
    bridge,
    guidedDemo,
  });
  const stopRelay = startRelayTimers(relay, bridge);
  let onceOnly: Awaited<ReturnType<typeof startRunOnce>> | undefined;
  let http: { server: ServerType; address: AddressInfo } | undefined;
  let admin: DynsecAdmin | undefined;
  let consoles: ConsoleBridge | undefined;
  try {
    http = await listenHttp(app, config.host, config.port);
    consoles = await ConsoleBridge.create({
      upstream: broker,
      now: () => clock.now(),
      ...(config.mqttSendLimits ? { sendLimits: config.mqttSendLimits } : {}),
      beforeForward: async (message) => {
        const stored = await history.record(message);
        if (message.publisher?.kind === 'operator') await auditOperatorPublish(store, message, message.publisher, stored.cursor);
      },
    });
    consoles.attachWebSocket(http.server as HttpServer, consoleAuthenticator(store, clock));
    // Candidates acknowledged before a crash are decided now (server decision 20); the grant
    // sweep runs on the instance that runs the cluster's timers (run-once.ts).
    gateway.start(false);
    await gateway.recover();
    presence.start();
    const startMqttDemo: StartWork = async () => {
      const dynsec = await DynsecAdmin.connect({ url: mqttConfig.url, username: mqttConfig.adminUsername!, password: mqttConfig.adminPassword!, reservedUsernames: [mqttConfig.username] });
      admin = dynsec;
      const demo = await startDemo({
        brokerUrl: mqttConfig.url,
        seed: config.demoSeed,
        pace: DEMO_PACES[config.demoPace],
        now: () => clock.now(),
        provisionAgent: async (agentId) => {
          const password = generateAgentPassword();
          await dynsec.addAgent(agentId, password);
          await store.putAgentCredential({ agentId, passwordHash: await hashPassword(password), createdAt: clock.now() });
          return password;
        },
        candidateTopic: agentCandidateTopic,
        ensureRoom: async (id, name) => void (await rooms.create({ id, name, moderation: 'auto' })),
        publishAsFacilitator: async (topic, envelope) => {
          const payload = new TextEncoder().encode(JSON.stringify(envelope));
          await history.record({ topic, payload, publisher: null, receivedAt: clock.now() });
          await broker.publish(topic, payload, 1);
        },
        observe: (filter, handler) => broker.onMessage(filter, handler),
      }).catch(async (error: unknown) => {
        await dynsec.close();
        throw error;
      });
      return async () => {
        await demo.stop();
        await dynsec.close();
        if (admin === dynsec) admin = undefined;
      };
    };
    const mqttDemo = config.demo && mqttConfig.adminUsername && mqttConfig.adminPassword;
    if (config.demo && !mqttDemo) console.log('Demo off: with MQTT_URL it needs MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD to provision its agents.');
    onceOnly = await startRunOnce({
      databaseUrl: config.databaseUrl,
      start: onceOnlyWork({ gateway, relay, clock, negotiations }, config.demo ? [...(mqttDemo ? [startMqttDemo] : []), ...httpDemos(config, http.address, clock, store, guidedDemo)] : []),
    });
    const running = onceOnly;
    const httpServer = http.server;
    return {
      url: `http://${urlHost(http.address)}:${http.address.port}`,
      mqttUrl: mqttConfig.url,
      http: http.address,
      store,
      broker,
      gateway,
      rooms,
      relay,
      cluster: running,
      async close() {
        // With other instances running: first stop taking candidates (they take them), then
        // finish deciding those already taken. Alone: keep the share, which the broker then
        // queues for this client id until it is back (docs/decisions-cluster.md C4).
        const alone = !(await running.othersAlive());
        if (!alone) await broker.leaveShareGroup();
        // What arrives from now on stays with the broker for the next start (or the others).
        broker.stopIntake();
        await running.stop();
        stopRelay();
        presence.stop();
        await gateway.stop();
        await consoles?.close();
        await broker.close({ keepShare: alone });
        await closeHttp(httpServer);
        await store.close();
      },
    };
  } catch (error) {
    await onceOnly?.stop().catch(() => undefined);
    stopRelay();
    await consoles?.close().catch(() => undefined);
    await admin?.close().catch(() => undefined);
    await broker.close().catch(() => undefined);
    if (http) await new Promise<void>((resolve) => http!.server.close(() => resolve()));
    await store.close().catch(() => undefined);
    throw error;
  }
}
