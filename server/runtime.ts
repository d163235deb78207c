// One Switchboard process: storage, the embedded MQTT broker (TCP for agents, WebSocket at /mqtt
// for consoles), the gateway, presence and the HTTP app. `npm start` runs it through main.ts;
// integration tests start it in-process or as a child process. With MQTT_URL the broker is
// external instead (runtime-external.ts); what both share is in runtime-parts.ts.
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyPassword } from './auth/password';
import { systemClock } from './clock';
import { startRunOnce } from './cluster/run-once';
import { ConfigError, type Config } from './config';
import { Gateway, isCandidate } from './gateway/gateway';
import { EmbeddedBroker } from './mqtt/embedded-broker';
import { DEFAULT_PUBLISH_QUOTAS, PublishQuotas } from './mqtt/publish-quotas';
import { HistoryRecorder } from './rooms/history-recorder';
import type { PresenceTracker } from './rooms/presence-tracker';
import { RoomRegistry } from './rooms/room-registry';
import { httpDemos, localUrl, startRoomDemoAgents, stopping } from './runtime-demos';
import {
  assembleServices, auditOperatorPublish, closeHttp, consoleAuthenticator, listenHttp, onceOnlyWork, startRelayTimers, urlHost,
  type HttpListener, type RunningSwitchboard, type StartOptions,
} from './runtime-parts';
import { openStore } from './store/open-store';

export type { RunningSwitchboard, StartOptions } from './runtime-parts';

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

export async function startSwitchboard(config: Config, options: StartOptions = {}): Promise<RunningSwitchboard> {
  // Loaded only with MQTT_URL, like the MQTT client and PostgreSQL driver behind it (decisions-server.md §47).
  if (config.mqttExternal) return (await import('./runtime-external')).startWithExternalBroker(config, config.mqttExternal, options);
  const clock = options.clock ?? systemClock;
  const store = await openStore(config);
  const rooms = new RoomRegistry(store);
  const history = new HistoryRecorder(store, rooms);
  // The broker's hooks need presence, and presence needs the broker: a reference filled in below.
  const late: { presence?: PresenceTracker; gateway?: Gateway } = {};

  const broker = await EmbeddedBroker.create({
    now: () => clock.now(),
    ...(config.mqttSendLimits ? { sendLimits: config.mqttSendLimits } : {}),
    ...(config.mqttRevalidateMs ? { revalidateEveryMs: config.mqttRevalidateMs } : {}),
    publishQuotas: new PublishQuotas(config.mqttPublishQuotas ?? DEFAULT_PUBLISH_QUOTAS, clock),
    verifyAgent: async (agentId, password) => {
      const credential = await store.getAgentCredential(agentId);
      if (!credential || !(await verifyPassword(password, credential.passwordHash))) return false;
      // `agents remove` and `agents add --rotate` (the CLI, perhaps another process) change the
      // stored credential; the broker asks this again and ends the connection once it is false.
      return async () => (await store.getAgentCredential(agentId))?.passwordHash === credential.passwordHash;
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

  const gateway = new Gateway({ broker, store, history, now: () => clock.now(), newId: () => `msg_${randomUUID()}` });
  late.gateway = gateway;
  // The broker is in this process: if readiness answers, it is up.
  const { presence, relay, negotiations, guidedDemo, bridge, app } = await assembleServices(config, options, { store, clock, rooms, broker, gateway, sessionsChanged: () => void broker.revalidate() }, () => null);
  late.presence = presence;
  const stopRelay = startRelayTimers(relay, bridge);
  // `agents remove`, `--rotate` and role changes by the CLI (another process) close what they
  // revoke at once; the sweep every MQTT_REVALIDATE_MS stays the backstop (decisions-server.md §39).
  const stopAccessWatch = store.watchAccessChanges?.(() => void broker.revalidate()) ?? (() => undefined);

  let http: HttpListener | undefined;
  try {
    const mqtt = await listenForAgents(broker, config.host, config.mqttPort);
    http = await listenHttp(app, config.host, config.port, config.listen);
    broker.attachWebSocket(http.server as HttpServer, consoleAuthenticator(store, clock, config.allowedHosts));
    // Candidates acknowledged before a crash are decided now (server decision 20); the grant
    // sweep runs on the instance that runs the cluster's timers (run-once.ts).
    gateway.start(false);
    await gateway.recover();
    presence.start();
    const address = http.address;
    const onceOnly = await startRunOnce({
      databaseUrl: config.databaseUrl,
      start: onceOnlyWork({ gateway, relay, clock, negotiations, store }, config.demo ? [
        async () => stopping(await startRoomDemoAgents(config, localUrl(config, 'mqtt', mqtt), { store, rooms, history, broker, clock })),
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
        stopAccessWatch();
        stopRelay();
        presence.stop();
        await gateway.stop();
        await broker.close();
        await closeHttp(httpServer);
        await store.close();
      },
    };
  } catch (error) {
    stopAccessWatch();
    stopRelay();
    await broker.close().catch(() => undefined);
    if (http) await new Promise<void>((resolve) => http!.server.close(() => resolve()));
    await store.close().catch(() => undefined);
    throw error;
  }
}

