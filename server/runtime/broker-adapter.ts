// The broker an instance runs over, behind one interface (docs/decisions-server.md §46): aedes in
// this process (embedded-adapter.ts), or an external MQTT broker such as Mosquitto reached as a
// client (external-adapter.ts, MQTT_URL). The runtime's one lifecycle opens it after the store,
// binds the gateway to its intake, serves it once the HTTP listener is up, and closes it in reverse.
import type { Server as HttpServer } from 'node:http';
import type { AgentBroker } from '../agents/agent-broker';
import type { Clock } from '../clock';
import type { RunOnce, StartWork } from '../cluster/run-once';
import { ConfigError, type Config } from '../config';
import type { BrokerMessage, BrokerPort } from '../mqtt/broker-port';
import type { HistoryRecorder } from '../rooms/history-recorder';
import type { Store } from '../store/store';
import type { ConsoleAuthenticator } from './console-authenticator';
import type { RoomDemoParts } from './demos';
import { openEmbeddedBroker } from './embedded-adapter';

/** What a broker's intake needs from the instance. */
export interface BrokerDeps {
  readonly store: Store;
  readonly history: HistoryRecorder;
  readonly clock: Clock;
  /** The gateway's admission of a candidate, bound once the gateway exists (gateway/late-gateway.ts). */
  readonly admitCandidate: (message: BrokerMessage) => Promise<void>;
}

export interface BrokerAdapter {
  /** What the gateway, history, presence and the demo publish and subscribe through. */
  readonly port: BrokerPort;
  /** The gateway confirms each decision's hand-over to the broker before acknowledging its candidate (an external broker's intake). */
  readonly confirmHandOver: boolean;
  /** The readiness check's word on the broker: null while it is up. */
  down(): string | null;
  /** Checks the consoles' open /mqtt connections again now (a session ended, a role changed). */
  revalidateConsoles(): void;
  /** Open MQTT connections by kind, for the metrics; undefined when the broker is not this process's. */
  connections?(): { readonly agent: number; readonly console: number };
  /** Acting on agents' credentials and connections on this broker (agents/agent-broker.ts). */
  readonly agents: AgentBroker;
  /** Tells `handler` of each agent whose connection ended; an external broker does not say. */
  onAgentGone(handler: (agentId: string) => void): void;
  /**
   * Awaits `handler` before closing a connection whose agent credential was revoked (the embedded
   * broker; an external one closes connections itself).
   */
  onAgentRevoked(handler: (agentId: string) => Promise<void>): void;
  /**
   * Starts taking connections: the consoles' /mqtt on the HTTP server, and the agents' listener
   * of the embedded broker. Resolves the URL agents connect to, and how to stop taking connections
   * (open consoles end: the HTTP server's close waits for its upgraded sockets).
   */
  serve(http: HttpServer, authenticate: ConsoleAuthenticator): Promise<{ readonly url: string; stop(): Promise<void> }>;
  /** The room demo's agents over this broker (once it serves), or undefined when they cannot be provisioned here. */
  roomDemo(parts: RoomDemoParts): StartWork | undefined;
  /** First of the stops: with other instances running, hands this one's share of the agents' messages to them (docs/decisions-cluster.md C4). */
  handOver(cluster: RunOnce): Promise<void>;
  close(): Promise<void>;
}

export type OpenBroker = (deps: BrokerDeps) => Promise<BrokerAdapter>;

/** The broker the configuration names; a configuration error is thrown here, before anything opens. */
export function brokerFor(config: Config): OpenBroker {
  const external = config.mqttExternal;
  if (!external) return (deps) => openEmbeddedBroker(config, deps);
  const password = external.password;
  if (!password)
    throw new ConfigError(
      "MQTT_PASSWORD is required with MQTT_URL (the server's broker credential, from `npm run cli -- broker setup`).",
    );
  // Loaded only with MQTT_URL, like the MQTT client and the PostgreSQL driver (decisions-server.md §49).
  return async (deps) =>
    (await import('./external-adapter')).connectExternalBroker(config, { ...external, password }, deps);
}
