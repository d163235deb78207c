// What acting on an agent asks of the broker it connects to (decisions-server.md §62, §63). The
// store is the truth on either broker: the embedded one checks open connections against it
// (runtime/agent-verifier.ts), so it only needs a nudge to check now; an external Mosquitto
// holds its own copy of the credential in dynamic security, so each change is also made there.
import { CodedError } from '@shared/errors';
import type { DynsecAdmin } from '../mqtt/mosquitto-dynsec';

export interface AgentBroker {
  readonly kind: 'embedded' | 'external';
  /** Open connections of the agent; null when the broker cannot say (an external one). */
  connections(agentId: string): number | null;
  /**
   * Open connections of every agent at once (absent: 0), for a list; null when the broker cannot
   * say. One pass, where asking `connections` per agent would walk every connection per agent.
   */
  connectionCounts(): ReadonlyMap<string, number> | null;
  /** Before the store: a new or rotated password (`suspended`: the client stays disabled). */
  provision(agentId: string, password: string, suspended: boolean): Promise<void>;
  /** After the store: the credential is gone. True when the broker held it (external only). */
  removed(agentId: string): Promise<boolean>;
  /** After the store: suspended (true) or resumed (false). */
  suspended(agentId: string, suspended: boolean): Promise<void>;
  /**
   * After the store's disconnect marker moved, or a rotation: its open connections close; it may
   * connect again (with the new password), unless `suspended`.
   */
  closeConnections(agentId: string, suspended: boolean): Promise<void>;
}

/** aedes in this process: every change is closed by checking open connections again at once. */
export function embeddedAgentBroker(broker: {
  agentConnections(agentId: string): number;
  agentConnectionCounts(): ReadonlyMap<string, number>;
  revalidate(): Promise<number>;
}): AgentBroker {
  const check = async () => void (await broker.revalidate());
  return {
    kind: 'embedded',
    connections: (agentId) => broker.agentConnections(agentId),
    connectionCounts: () => broker.agentConnectionCounts(),
    provision: async () => undefined,
    removed: async () => (await check(), false),
    suspended: check,
    closeConnections: check,
  };
}

/**
 * The embedded broker seen from another process (the CLI): nothing to do here, the server's
 * watch of the store (watchAccessChanges) closes what the change revoked.
 */
export const storeOnlyAgentBroker: AgentBroker = {
  kind: 'embedded',
  connections: () => null,
  connectionCounts: () => null,
  provision: async () => undefined,
  removed: async () => false,
  suspended: async () => undefined,
  closeConnections: async () => undefined,
};

/**
 * Mosquitto through its dynamic-security admin, connected for each action and closed after it
 * (an action is rare; a held admin connection would be one more thing to keep alive).
 * `connect` undefined: the admin credentials are not configured, and actions are refused.
 */
export function dynsecAgentBroker(connect: (() => Promise<DynsecAdmin>) | undefined): AgentBroker {
  const withAdmin = async <T>(work: (admin: DynsecAdmin) => Promise<T>): Promise<T> => {
    if (!connect)
      throw new CodedError(
        'BROKER_UNAVAILABLE',
        'MQTT_URL is set: MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD (the dynamic-security admin) are needed to change agents on the broker',
      );
    let admin: DynsecAdmin;
    try {
      admin = await connect();
    } catch (error) {
      throw new CodedError(
        'BROKER_UNAVAILABLE',
        `cannot reach the broker's dynamic security: ${(error as Error).message}`,
      );
    }
    try {
      return await work(admin);
    } finally {
      await admin.close();
    }
  };
  return {
    kind: 'external',
    connections: () => null,
    connectionCounts: () => null,
    provision: (agentId, password, suspended) =>
      withAdmin(async (admin) => {
        // Setting a password enables the client (mosquitto-dynsec.ts); a suspension outlives a rotation.
        await admin.addAgent(agentId, password);
        if (suspended) await admin.setAgentEnabled(agentId, false);
      }),
    removed: (agentId) => withAdmin((admin) => admin.removeAgent(agentId)),
    suspended: (agentId, suspended) =>
      withAdmin(async (admin) => void (await admin.setAgentEnabled(agentId, !suspended))),
    // A new password does not end Mosquitto's open connections either: both kick.
    closeConnections: (agentId, suspended) =>
      withAdmin(async (admin) => void (await admin.kickAgent(agentId, suspended))),
  };
}
