// The composition root: one Switchboard process, over the embedded broker or the one at MQTT_URL
// (broker-adapter.ts), in one lifecycle (docs/decisions-server.md §46): the store, the broker, the
// gateway bound to the broker's intake, the services, the HTTP listener with the broker serving
// /mqtt and its agents, then the work the cluster runs once (sweepers, demo agents); close() stops
// them in reverse. `npm start` runs it through main.ts; integration tests start it in-process.
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentService } from '../agents/agent-service';
import { createApp } from '../app';
import { shiftedClock, type Clock } from '../clock';
import { startRunOnce } from '../cluster/run-once';
import type { Config } from '../config';
import type { RelayBridgeOptions } from '../external/relay-bridge';
import { startBridge } from '../external/start-bridge';
import { Gateway } from '../gateway/gateway';
import { lateGateway } from '../gateway/late-gateway';
import { createMetrics, type SwitchboardMetrics } from '../metrics/switchboard-metrics';
import { DEFAULT_HTTP_LIMITS } from '../http/limits';
import type { BrokerPort } from '../mqtt/broker-port';
import type { RelayServices } from '../relay/relay-services';
import { HistoryRecorder } from '../rooms/history-recorder';
import { PresenceTracker } from '../rooms/presence-tracker';
import { RoomRegistry } from '../rooms/room-registry';
import { openStore } from '../store/open-store';
import type { Store } from '../store/store';
import { buildAppServices, startRelayTimers } from './app-services';
import { brokerFor, type OpenBroker } from './broker-adapter';
import { consoleAuthenticator } from './console-authenticator';
import { httpDemos } from './demos';
import { oacopDemoDids } from '../demo/oacop/oacop-demo';
import { startInbox, type RunningInbox } from './inbox';
import { operatorNamer } from '../auth/operator-name';
import { closeHttp, listenHttp, urlHost } from './http-listener';
import { consoleBaseUrl } from '../auth/enrollment';
import { startServerHeartbeat } from '../auth/server-heartbeat';
import { Lifecycle } from './lifecycle';
import { onceOnlyWork } from './once-only';
import { WebhookService } from '../webhooks/webhook-service';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from '../webhooks/webhook-sender';
import { moduleLogger } from '../logging/logger';
import { McpSessions } from '../mcp/mcp-sessions';
import { DEFAULT_REVALIDATE_MS } from '../mqtt/revalidate';
import { agentVerifier } from './agent-verifier';
import type { AgentBroker } from '../agents/agent-broker';

const log = moduleLogger('webhooks');

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
  /** The inbox's service: its board is the server-wide InboxFeed (webhooks read it). */
  readonly inbox: RunningInbox['service'];
  /** This process's metrics registry (GET /metrics with METRICS_TOKEN). */
  readonly metrics: SwitchboardMetrics;
  /** The clock every part of this instance reads (the system's, or the test clock of config). */
  readonly clock: Clock;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly clock?: Clock;
  /** Tuning of the external-services bridge (tests shorten its backoff and polls). */
  readonly bridge?: Partial<RelayBridgeOptions>;
  /** How often the inbox looks at time-based items again (runtime/inbox.ts). */
  readonly inboxEveryMs?: number;
}

export async function startSwitchboard(config: Config, options: StartOptions = {}): Promise<RunningSwitchboard> {
  const openBroker = brokerFor(config);
  const life = new Lifecycle();
  try {
    return await start(config, options, openBroker, life);
  } catch (error) {
    await life.unwind();
    throw error;
  }
}

async function start(
  config: Config,
  options: StartOptions,
  openBroker: OpenBroker,
  life: Lifecycle,
): Promise<RunningSwitchboard> {
  const clock = options.clock ?? shiftedClock(config.testClockShiftMs ?? 0);
  // Its own registry, not prom-client's global one: two servers in one test process stay apart.
  const metrics = createMetrics();
  const store = await life.open(
    () => openStore(config),
    (opened) => opened.close(),
  );
  const engine = config.databaseUrl === undefined ? 'sqlite' : 'postgres';
  life.started(store.onCommit?.(({ seconds }) => metrics.storeCommitted(engine, seconds)) ?? (() => undefined));
  const rooms = new RoomRegistry(store);
  const history = new HistoryRecorder(store, rooms);
  history.onRecorded((row) => metrics.roomMessageRecorded(row));

  // The broker's intake hands candidates to the gateway, which needs the broker: they wait in
  // this slot until it is bound, in their order (decisions-server.md §34).
  const candidates = lateGateway();
  const broker = await life.open(
    () => openBroker({ store, history, clock, admitCandidate: candidates.admitCandidate }),
    (opened) => opened.close(),
  );
  const gateway = new Gateway({
    broker: broker.port,
    store,
    history,
    now: () => clock.now(),
    newId: () => `msg_${randomUUID()}`,
    confirmHandOver: broker.confirmHandOver,
  });
  candidates.attach(gateway);
  gateway.onDecided((decided) => metrics.gatewayDecided(decided));
  // Candidates acknowledged before a crash are decided now (server decision 20); the grant sweep
  // runs on the instance that runs the cluster's timers (once-only.ts).
  await life.open(
    async () => {
      gateway.start(false);
      await gateway.recover();
    },
    () => gateway.stop(),
  );

  const presence = new PresenceTracker(broker.port, () => clock.now());
  broker.onAgentGone((agentId) => presence.disconnected(agentId));
  presence.start();
  life.started(() => presence.stop());
  const bridge = await startBridge(store, clock, config, options.bridge);
  // Every instance sends the outbox: rows are leased, so instances never send one row together.
  const webhooks = new WebhookService({
    store: store.webhooks,
    clock,
    sender: {
      allowPrivate: config.webhooks?.allowPrivate ?? false,
      timeoutMs: config.webhooks?.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    },
    dispatcher: {
      ...(config.webhooks?.retryDelaysMs ? { retryDelaysMs: config.webhooks.retryDelaysMs } : {}),
      onError: (error) => log.error({ err: error }, 'the webhook outbox could not be read or written'),
      onAttempt: (outcome) => metrics.webhookAttempt(outcome),
    },
  });
  await webhooks.configure(config.webhooks?.endpoints ?? []);
  const services = buildAppServices({
    store,
    clock,
    bridge,
    webhooks,
    presence,
    demo: { on: config.demo, seed: config.demoSeed },
  });
  life.started(startRelayTimers(services.relay.services, bridge));
  const relayServices = services.relay.services;
  relayServices.relay.onOutcome((outcome) => metrics.relayOutcome(outcome));
  relayServices.feed.onWoken((latencyMs) => metrics.longPollWoken(latencyMs));
  metrics.watch({
    longPollsWaiting: () => relayServices.feed.waiting,
    mqttConnections: () => broker.connections?.(),
  });
  // Agents' MCP sessions speak AOR over the embedded broker's agent listener, as the agent
  // (decisions-mcp.md §3); with MQTT_URL there is no endpoint (decisions-mcp.md §6).
  const mcp = config.mqttExternal
    ? undefined
    : await life.open(
        async () =>
          new McpSessions({
            store,
            clock,
            brokerUrl: () => agentsUrl,
            verifyAgent: agentVerifier(store.access),
          }),
        (sessions) => sessions.close(),
      );
  if (mcp) {
    // The broker's periodic check of open connections is the backstop for sessions too.
    const timer = setInterval(() => void mcp.revalidate(), config.mqttRevalidateMs ?? DEFAULT_REVALIDATE_MS);
    timer.unref();
    life.started(() => clearInterval(timer));
  }
  // Rejects counted from history until the store answers them in one query.
  const agents = new AgentService({
    store,
    clock,
    broker: mcp ? withMcpSessions(broker.agents, mcp) : broker.agents,
    grants: gateway,
    presence,
    // decisions-server.md §64: one query over the rejects index, every room.
    rejectsSince: async (sinceMs) =>
      new Map((await store.rooms.rejectsByAgent(sinceMs)).map((r) => [r.agentId, r.rejects] as const)),
  });
  // A connection closed because another process suspended or removed its agent reads its grants'
  // revokes first (decisions-server.md §72).
  broker.onAgentRevoked(async (agentId) => void (await agents.endRevokedGrants(agentId)));
  // `agents remove`, `--rotate`, `suspend`, `disconnect` and role changes by the CLI (another
  // process) close what they revoke at once, and a suspension ends its agent's grants here; the
  // sweep every MQTT_REVALIDATE_MS stays the backstop (decisions-server.md §39, §62).
  life.started(
    store.access.watchAccessChanges?.(() => {
      broker.revalidateConsoles();
      void mcp?.revalidate();
      agents
        .endSuspendedGrants()
        .catch((error: unknown) => console.error("switchboard: could not end a suspended agent's grants:", error));
    }) ?? (() => undefined),
  );

  const inbox = await life.open(
    () =>
      startInbox({
        store,
        clock,
        broker: broker.port,
        gateway,
        presence,
        negotiations: services.negotiations,
        oacop: services.oacop,
        feed: services.relay.services.feed,
        services: bridge.status,
        operatorName: operatorNamer(store),
        demoDids: config.demo ? oacopDemoDids(config.demoSeed) : [],
        ...(options.inboxEveryMs === undefined ? {} : { everyMs: options.inboxEveryMs }),
      }),
    (running) => running.stop(),
  );
  // Webhooks deliver the inbox's changes; stopped before the inbox, so none is half-heard.
  await life.open(
    () => webhooks.start(inbox.service.board),
    () => webhooks.stop(),
  );

  const app = createApp({
    ...services,
    inbox: { service: inbox.service },
    staticDir: config.staticDir,
    limits: config.limits ?? DEFAULT_HTTP_LIMITS,
    allowedHosts: config.allowedHosts ?? [],
    trustProxy: config.trustProxy ?? [],
    rooms: { store, clock, rooms, presence, gateway },
    agents: { service: agents, mqttUrl: () => agentsUrl },
    readiness: { broker: () => broker.down() },
    sessionsChanged: () => broker.revalidateConsoles(),
    sessionOpened: (how) => metrics.sessionOpened(how),
    ...(mcp ? { mcp } : {}),
    ...(config.metricsToken ? { metrics: { token: config.metricsToken, render: () => metrics.render() } } : {}),
  });
  /** Set once the broker serves, before any request can ask. */
  let agentsUrl = '';
  const http = await life.open(
    () => listenHttp(app, config.host, config.port, config.listen, config.trustProxy),
    (listener) => closeHttp(listener.server),
  );
  const mqtt = await life.open(
    () => broker.serve(http.server as HttpServer, consoleAuthenticator(store, clock, config.allowedHosts)),
    (serving) => serving.stop(),
  );
  agentsUrl = mqtt.url;
  // The CLI learns from this which store a server uses, and its address (decisions-server.md §85).
  await life.open(
    () => startServerHeartbeat(store, consoleBaseUrl(http.address.address, http.address.port), clock),
    (heartbeat) => heartbeat.stop(),
  );

  const roomDemo = config.demo ? broker.roomDemo({ store, rooms, history, broker: broker.port, clock }) : undefined;
  const demos = config.demo
    ? [
        ...(roomDemo ? [roomDemo] : []),
        ...httpDemos(config, http.address, clock, store, services.guidedDemo, services.negotiations),
      ]
    : [];
  const cluster = await life.open(
    () =>
      startRunOnce({
        databaseUrl: config.databaseUrl,
        start: onceOnlyWork(
          { gateway, relay: services.relay.services, clock, negotiations: services.negotiations, store },
          demos,
        ),
      }),
    (running) => running.stop(),
  );
  // The first step of close(): with an external broker, this instance's share of the agents'
  // messages goes to the other instances before its work and its gateway stop.
  life.started(() => broker.handOver(cluster));

  return {
    url: `http://${urlHost(http.address)}:${http.address.port}`,
    mqttUrl: mqtt.url,
    http: http.address,
    store,
    broker: broker.port,
    gateway,
    rooms,
    relay: services.relay.services,
    cluster,
    inbox: inbox.service,
    metrics,
    clock,
    close: () => life.close(),
  };
}

/** An agent's change closes its MCP sessions as at once as its MQTT connections (decisions-mcp.md §3). */
function withMcpSessions(agents: AgentBroker, mcp: McpSessions): AgentBroker {
  const also = async <T>(done: Promise<T>): Promise<T> => {
    const value = await done;
    await mcp.revalidate();
    return value;
  };
  return {
    ...agents,
    removed: (agentId) => also(agents.removed(agentId)),
    suspended: (agentId, suspended) => also(agents.suspended(agentId, suspended)),
    closeConnections: (agentId, suspended) => also(agents.closeConnections(agentId, suspended)),
  };
}
