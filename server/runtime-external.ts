// One Switchboard process with an external broker (MQTT_URL): the same parts as runtime.ts, with
// the gateway, history and presence over the broker's client, the consoles' /mqtt bridged to it,
// and the demo's agents provisioned through its dynamic security.
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { isCodedError } from '@shared/errors';
import { systemClock } from './clock';
import { startRunOnce, type StartWork } from './cluster/run-once';
import { ConfigError, type Config } from './config';
import { Gateway } from './gateway/gateway';
import { lateGateway } from './gateway/late-gateway';
import { ConsoleBridge } from './mqtt/console-bridge';
import { ExternalBroker } from './mqtt/external-broker';
import { agentCandidateTopic, DynsecAdmin, GATEWAY_SHARE_GROUP } from './mqtt/mosquitto-dynsec';
import { DEFAULT_PUBLISH_QUOTAS, PublishQuotas } from './mqtt/publish-quotas';
import { HistoryRecorder, recordOnArrival } from './rooms/history-recorder';
import { RoomRegistry } from './rooms/room-registry';
import { httpDemos, startRoomDemoAgents } from './runtime-demos';
import {
  assembleServices, auditOperatorPublish, closeHttp, consoleAuthenticator, listenHttp, onceOnlyWork, startRelayTimers, urlHost,
  type HttpListener, type RunningSwitchboard, type StartOptions,
} from './runtime-parts';
import { openStore } from './store/open-store';

/**
 * MQTT_URL: the gateway, history and presence run over the external broker (Mosquitto 2 with
 * dynamic security, set up by `cli broker setup`). Room messages are stored when they arrive,
 * before any handler sees them (docs/decisions-external-broker.md). Demo agents need the
 * dynamic-security admin (MQTT_ADMIN_*) to be provisioned; without it the demo is off.
 * The console's /mqtt WebSocket is bridged to the broker by the server (mqtt/console-bridge.ts).
 */
export async function startWithExternalBroker(config: Config, mqttConfig: NonNullable<Config['mqttExternal']>, options: StartOptions): Promise<RunningSwitchboard> {
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
      ...recordOnArrival(history, candidates.admitCandidate, new PublishQuotas(config.mqttPublishQuotas ?? DEFAULT_PUBLISH_QUOTAS, clock)),
    });
  } catch (error) {
    await store.close().catch(() => undefined);
    if (isCodedError(error)) throw new ConfigError(error.message);
    throw error;
  }
  const gateway = new Gateway({ broker, store, history, now: () => clock.now(), newId: () => `msg_${randomUUID()}`, confirmHandOver: true });
  candidates.attach(gateway);
  const late: { consoles?: ConsoleBridge } = {};
  const sessionsChanged = () => void late.consoles?.revalidate();
  const { presence, relay, negotiations, bridge, guidedDemo, app } = await assembleServices(config, options, { store, clock, rooms, broker, gateway, sessionsChanged }, () =>
    broker.connected ? null : 'not connected to the MQTT broker (MQTT_URL)',
  );
  const stopRelay = startRelayTimers(relay, bridge);
  // Mosquitto ends agents' connections itself; the consoles' sockets are checked at once when the
  // CLI or another instance changes an operator or ends a session (decisions-server.md §39).
  const stopAccessWatch = store.access.watchAccessChanges?.(sessionsChanged) ?? (() => undefined);
  let onceOnly: Awaited<ReturnType<typeof startRunOnce>> | undefined;
  let http: HttpListener | undefined;
  let admin: DynsecAdmin | undefined;
  let consoles: ConsoleBridge | undefined;
  try {
    http = await listenHttp(app, config.host, config.port, config.listen);
    consoles = await ConsoleBridge.create({
      upstream: broker,
      now: () => clock.now(),
      ...(config.mqttSendLimits ? { sendLimits: config.mqttSendLimits } : {}),
      ...(config.mqttRevalidateMs ? { revalidateEveryMs: config.mqttRevalidateMs } : {}),
      beforeForward: async (message) => {
        const stored = await history.record(message);
        if (message.publisher?.kind === 'operator') await auditOperatorPublish(store, message, message.publisher, stored.cursor);
      },
    });
    late.consoles = consoles;
    consoles.attachWebSocket(http.server as HttpServer, consoleAuthenticator(store, clock, config.allowedHosts));
    // Candidates acknowledged before a crash are decided now (server decision 20); the grant
    // sweep runs on the instance that runs the cluster's timers (run-once.ts).
    gateway.start(false);
    await gateway.recover();
    presence.start();
    const startMqttDemo: StartWork = async () => {
      const dynsec = await DynsecAdmin.connect({ url: mqttConfig.url, username: mqttConfig.adminUsername!, password: mqttConfig.adminPassword!, reservedUsernames: [mqttConfig.username] });
      admin = dynsec;
      const demo = await startRoomDemoAgents(config, mqttConfig.url, { store, rooms, history, broker, clock }, {
        addAgent: async (agentId, password) => void (await dynsec.addAgent(agentId, password)),
        candidateTopic: agentCandidateTopic,
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
      start: onceOnlyWork({ gateway, relay, clock, negotiations, store }, config.demo ? [...(mqttDemo ? [startMqttDemo] : []), ...httpDemos(config, http.address, clock, store, guidedDemo)] : []),
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
        const left = await running.leaveUnlessLast(() => broker.leaveShareGroup());
        // What arrives from now on stays with the broker for the next start (or the others).
        broker.stopIntake();
        await running.stop();
        stopAccessWatch();
        stopRelay();
        presence.stop();
        await gateway.stop();
        await consoles?.close();
        await broker.close({ keepShare: !left });
        await closeHttp(httpServer);
        await store.close();
      },
    };
  } catch (error) {
    await onceOnly?.stop().catch(() => undefined);
    stopAccessWatch();
    stopRelay();
    await consoles?.close().catch(() => undefined);
    await admin?.close().catch(() => undefined);
    await broker.close().catch(() => undefined);
    if (http) await new Promise<void>((resolve) => http!.server.close(() => resolve()));
    await store.close().catch(() => undefined);
    throw error;
  }
}
