// The demo agents (on unless DEMO=0), started by the instance that runs the cluster's timers:
// the rooms' agents over MQTT, and the Agora, RFC 0002 and OACoP agents over HTTP. Each connects
// to this server as any outside agent would, with keys that follow from DEMO_SEED.
import type { AddressInfo } from 'node:net';
import { hashAgentPassword } from '../auth/agent-password';
import { generateAgentPassword } from '../auth/password';
import type { Clock } from '../clock';
import type { StartWork } from '../cluster/run-once';
import type { Config } from '../config';
import { startAgoraDemo } from '../demo/agora/agora-demo';
import { DEMO_PACES } from '../demo/demo-config';
import { NEGOTIATION_PACES, startNegotiationDemo } from '../demo/negotiation/negotiation-demo';
import { startOacopDemo } from '../demo/oacop/oacop-demo';
import { startDemo, type DemoHandle, type StartDemoOptions } from '../demo/start-demo';
import type { BrokerPort } from '../mqtt/broker-port';
import type { NegotiationService } from '../negotiation/negotiation-service';
import type { HistoryRecorder } from '../rooms/history-recorder';
import type { RoomRegistry } from '../rooms/room-registry';
import type { GuidedDemoSlot } from '../routes/demo';
import type { Store } from '../store/store';
import { urlHost } from './http-listener';

/** Where an agent on this machine reaches a listener: loopback when it listens on every address. */
export function localUrl(config: Config, scheme: 'http' | 'mqtt', address: AddressInfo): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  return `${scheme}://${wildcard ? '127.0.0.1' : urlHost(address)}:${address.port}`;
}

export const stopping = (handle: { stop(): Promise<void> | void }) => async () => void (await handle.stop());

export interface RoomDemoParts {
  readonly store: Store;
  readonly rooms: RoomRegistry;
  readonly history: HistoryRecorder;
  readonly broker: BrokerPort;
  readonly clock: Clock;
}

/**
 * The rooms' demo agents connect like any agent: over MQTT with their own credentials (rotated
 * at each start, never printed). A scripted facilitator keeps the demo room busy. `external`
 * gives an external broker's part: registering each credential with it, and the per-agent
 * candidate topic its ACL needs (mqtt/dynsec-acls.ts).
 */
export function startRoomDemoAgents(
  config: Config,
  brokerUrl: string,
  parts: RoomDemoParts,
  external?: {
    readonly addAgent: (agentId: string, password: string) => Promise<void>;
    readonly candidateTopic: StartDemoOptions['candidateTopic'];
  },
): Promise<DemoHandle> {
  const { store, rooms, history, broker, clock } = parts;
  return startDemo({
    brokerUrl,
    seed: config.demoSeed,
    pace: DEMO_PACES[config.demoPace],
    now: () => clock.now(),
    provisionAgent: async (agentId) => {
      const password = generateAgentPassword();
      await external?.addAgent(agentId, password);
      await store.access.putAgentCredential({
        agentId,
        passwordHash: await hashAgentPassword(password),
        createdAt: clock.now(),
      });
      return password;
    },
    ...(external?.candidateTopic ? { candidateTopic: external.candidateTopic } : {}),
    ensureRoom: async (id, name) => void (await rooms.create({ id, name, moderation: 'auto' })),
    publishAsFacilitator: async (topic, envelope) => {
      const payload = new TextEncoder().encode(JSON.stringify(envelope));
      await history.record({ topic, payload, publisher: null, receivedAt: clock.now() });
      await broker.publish(topic, payload, 1);
    },
    observe: (filter, handler) => broker.onMessage(filter, handler),
  });
}

/** The demo agents that speak HTTP to this instance: Agora, RFC 0002 negotiations, OACoP. */
export function httpDemos(
  config: Config,
  address: AddressInfo,
  clock: Clock,
  store: Store,
  guided: GuidedDemoSlot,
  negotiations: NegotiationService,
): StartWork[] {
  const common = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    baseUrl: localUrl(config, 'http', address),
    seed: config.demoSeed,
    now: () => clock.now(),
  };
  return [
    async () => {
      const agora = await startAgoraDemo(common);
      // The concierge asks the demo's Agora services for things: named like the other demo parties.
      guided.names = { [agora.conciergeDid]: 'Demo Concierge' };
      return async () => {
        guided.names = undefined;
        await agora.stop();
      };
    },
    async () => {
      // The negotiating agents; a restart over the same data does not open their negotiations
      // again. They answer negotiations opened with them from outside the demo, heard from this
      // instance's service. The guided demo (routes/demo.ts) drives them: only the instance
      // running them offers it.
      const negotiation = startNegotiationDemo({
        ...common,
        pace: NEGOTIATION_PACES[config.demoPace],
        alreadyRan: async (did) => (await store.negotiations.list({ party: did, limit: 1 })).length > 0,
        watch: (listener) => negotiations.onSaved((record) => listener(record.id, record.state.parties)),
      });
      guided.port = negotiation;
      return async () => {
        guided.port = undefined;
        await negotiation.stop();
      };
    },
    // The calendar and resource agents (demo-calendars.ts).
    async () =>
      stopping(await startOacopDemo({ ...common, store, replyDelayMs: DEMO_PACES[config.demoPace].stepDelayMs })),
  ];
}
