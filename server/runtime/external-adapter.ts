// An external broker (MQTT_URL: Mosquitto 2 with dynamic security, set up by `cli broker setup`):
// the gateway, history and presence run over the server's client of it. Room messages are stored
// when they arrive, before any handler sees them (docs/decisions-external-broker.md); the
// consoles' /mqtt WebSocket is bridged to the broker by the server (mqtt/console-bridge.ts); the
// demo's agents are provisioned through dynamic security, so the demo needs its admin (MQTT_ADMIN_*).
import { isCodedError } from '@shared/errors';
import { dynsecAgentBroker } from '../agents/agent-broker';
import type { StartWork } from '../cluster/run-once';
import { ConfigError, type Config, type ExternalMqttConfig } from '../config';
import { ConsoleBridge } from '../mqtt/console-bridge';
import { ExternalBroker } from '../mqtt/external-broker';
import { agentCandidateTopic, GATEWAY_SHARE_GROUP } from '../mqtt/dynsec-acls';
import { DynsecAdmin } from '../mqtt/mosquitto-dynsec';
import { DEFAULT_PUBLISH_QUOTAS, PublishQuotas } from '../mqtt/publish-quotas';
import { recordOnArrival } from '../rooms/history-recorder';
import type { BrokerAdapter, BrokerDeps } from './broker-adapter';
import { startRoomDemoAgents, type RoomDemoParts } from './demos';
import { recordWithAudit } from './operator-audit';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

export async function connectExternalBroker(
  config: Config,
  mqtt: ExternalMqttConfig & { readonly password: string },
  deps: BrokerDeps,
): Promise<BrokerAdapter> {
  const { store, history, clock, admitCandidate } = deps;
  let broker: ExternalBroker;
  try {
    broker = await ExternalBroker.connect({
      url: mqtt.url,
      username: mqtt.username,
      password: mqtt.password,
      clientId: mqtt.clientId,
      now: () => clock.now(),
      // Each agent message is recorded and decided by the one instance the broker hands it to.
      shareGroup: GATEWAY_SHARE_GROUP,
      ...recordOnArrival(
        history,
        admitCandidate,
        new PublishQuotas(config.mqttPublishQuotas ?? DEFAULT_PUBLISH_QUOTAS, clock),
      ),
    });
  } catch (error) {
    if (isCodedError(error)) throw new ConfigError(error.message);
    throw error;
  }
  let consoles: ConsoleBridge | undefined;
  // Unset until handOver: a start that fails leaves the share group as it closes.
  let keepShare: boolean | undefined;
  return {
    port: broker,
    confirmHandOver: true,
    down: () => (broker.connected ? null : 'not connected to the MQTT broker (MQTT_URL)'),
    // Mosquitto ends agents' connections itself; the consoles' sockets are the server's to check.
    revalidateConsoles: () => void consoles?.revalidate(),
    agents: dynsecAgentBroker(
      mqtt.adminUsername && mqtt.adminPassword
        ? () =>
            DynsecAdmin.connect({
              url: mqtt.url,
              username: mqtt.adminUsername!,
              password: mqtt.adminPassword!,
              reservedUsernames: [mqtt.username],
            })
        : undefined,
    ),
    onAgentGone: () => undefined,
    onAgentRevoked: () => undefined,
    async serve(http, authenticate) {
      const bridge = await ConsoleBridge.create({
        upstream: broker,
        now: () => clock.now(),
        ...(config.mqttSendLimits ? { sendLimits: config.mqttSendLimits } : {}),
        ...(config.mqttRevalidateMs ? { revalidateEveryMs: config.mqttRevalidateMs } : {}),
        beforeForward: recordWithAudit(store, history),
      });
      consoles = bridge;
      bridge.attachWebSocket(http, authenticate);
      return {
        url: mqtt.url,
        async stop() {
          consoles = undefined;
          await bridge.close();
        },
      };
    },
    roomDemo(parts) {
      const { adminUsername, adminPassword } = mqtt;
      if (adminUsername && adminPassword)
        return roomDemoOverDynsec(
          config,
          { url: mqtt.url, serverUsername: mqtt.username, adminUsername, adminPassword },
          parts,
        );
      log.warn('demo off: with MQTT_URL it needs MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD to provision its agents');
      return undefined;
    },
    async handOver(cluster) {
      // With other instances running: first stop taking candidates (they take them), then
      // finish deciding those already taken. Alone: keep the share, which the broker then
      // queues for this client id until it is back (docs/decisions-cluster.md C4).
      keepShare = !(await cluster.leaveUnlessLast(() => broker.leaveShareGroup()));
      // What arrives from now on stays with the broker for the next start (or the others).
      broker.stopIntake();
    },
    close: () => broker.close(keepShare === undefined ? {} : { keepShare }),
  };
}

/** The room demo's agents, each registered with the broker's dynamic security before it connects. */
function roomDemoOverDynsec(
  config: Config,
  broker: {
    readonly url: string;
    readonly serverUsername: string;
    readonly adminUsername: string;
    readonly adminPassword: string;
  },
  parts: RoomDemoParts,
): StartWork {
  return async () => {
    const dynsec = await DynsecAdmin.connect({
      url: broker.url,
      username: broker.adminUsername,
      password: broker.adminPassword,
      reservedUsernames: [broker.serverUsername],
    });
    const demo = await startRoomDemoAgents(config, broker.url, parts, {
      addAgent: async (agentId, password) => void (await dynsec.addAgent(agentId, password)),
      candidateTopic: agentCandidateTopic,
    }).catch(async (error: unknown) => {
      await dynsec.close();
      throw error;
    });
    return async () => {
      await demo.stop();
      await dynsec.close();
    };
  };
}
