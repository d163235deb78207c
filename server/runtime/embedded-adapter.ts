// The embedded broker (aedes in this process): agents over TCP (MQTT_PORT), consoles over the
// WebSocket at /mqtt on the HTTP server; every publish is authorized, recorded and, a candidate,
// decided by the gateway before it is routed.
import type { AddressInfo } from 'node:net';
import { embeddedAgentBroker } from '../agents/agent-broker';
import { ConfigError, type Config } from '../config';
import { isCandidate } from '../gateway/gateway';
import { EmbeddedBroker } from '../mqtt/embedded-broker';
import { DEFAULT_PUBLISH_QUOTAS, PublishQuotas } from '../mqtt/publish-quotas';
import { agentVerifier } from './agent-verifier';
import type { BrokerAdapter, BrokerDeps } from './broker-adapter';
import { localUrl, startRoomDemoAgents, stopping } from './demos';
import { urlHost } from './http-listener';
import { recordWithAudit } from './operator-audit';

const DEFAULT_MQTT_PORT = 1883;

export async function openEmbeddedBroker(config: Config, deps: BrokerDeps): Promise<BrokerAdapter> {
  const { store, history, clock, admitCandidate } = deps;
  const record = recordWithAudit(store, history);
  const agentGone = new Set<(agentId: string) => void>();
  const agentRevoked = new Set<(agentId: string) => Promise<void>>();
  const broker = await EmbeddedBroker.create({
    now: () => clock.now(),
    ...(config.mqttSendLimits ? { sendLimits: config.mqttSendLimits } : {}),
    ...(config.mqttRevalidateMs ? { revalidateEveryMs: config.mqttRevalidateMs } : {}),
    publishQuotas: new PublishQuotas(config.mqttPublishQuotas ?? DEFAULT_PUBLISH_QUOTAS, clock),
    verifyAgent: agentVerifier(store.access),
    beforeRoute: (message) => (isCandidate(message) ? admitCandidate(message) : record(message)),
    beforeRevoke: async (identity) => {
      if (identity.kind === 'agent') await Promise.all([...agentRevoked].map((handler) => handler(identity.agentId)));
    },
    onClientGone: (identity) => {
      if (identity.kind === 'agent') for (const handler of agentGone) handler(identity.agentId);
    },
  });
  let agents: AddressInfo | undefined;
  return {
    port: broker,
    confirmHandOver: false,
    // The broker is in this process: if readiness answers, it is up.
    down: () => null,
    revalidateConsoles: () => void broker.revalidate(),
    agents: embeddedAgentBroker(broker),
    onAgentGone: (handler) => void agentGone.add(handler),
    onAgentRevoked: (handler) => void agentRevoked.add(handler),
    connections: () => broker.connectionsByKind(),
    async serve(http, authenticate) {
      const address = await listenForAgents(broker, config.host, config.mqttPort);
      agents = address;
      broker.attachWebSocket(http, authenticate);
      return { url: `mqtt://${urlHost(address)}:${address.port}`, stop: () => broker.stopListening() };
    },
    roomDemo: (parts) => async () =>
      stopping(await startRoomDemoAgents(config, localUrl(config, 'mqtt', agents!), parts)),
    handOver: async () => undefined,
    close: () => broker.close(),
  };
}

/** MQTT_PORT unset: 1883 when free, else any free port. Set and taken: a one-line ConfigError. */
async function listenForAgents(
  broker: EmbeddedBroker,
  host: string,
  configured: number | undefined,
): Promise<AddressInfo> {
  try {
    return await broker.listenTcp(host, configured ?? DEFAULT_MQTT_PORT);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE')
      throw new ConfigError(
        `cannot listen for MQTT on ${host}:${configured ?? DEFAULT_MQTT_PORT}: ${(error as Error).message}`,
      );
    if (configured !== undefined)
      throw new ConfigError(
        `MQTT_PORT ${configured} on ${host} is taken; set MQTT_PORT to a free port (or 0 for any).`,
      );
    return broker.listenTcp(host, 0);
  }
}
