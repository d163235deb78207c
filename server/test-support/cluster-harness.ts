// Several Switchboard instances on one PostgreSQL database and one private Mosquitto, in this
// process, each with its own HTTP port and its own broker credential and client id (as
// `cli broker setup` makes per instance): for the cluster tests and bench/cluster.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { loadConfig } from '../config';
import { DynsecAdmin } from '../mqtt/mosquitto-dynsec';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import type { PrivateMosquitto } from './private-mosquitto';

export interface Cluster {
  readonly instances: RunningSwitchboard[];
  /** Provisions an agent on the broker; returns its password (its client id must be its id). */
  addAgent(agentId: string): Promise<string>;
  /** Starts one more instance on the same database and broker. */
  addInstance(): Promise<RunningSwitchboard>;
  /** Starts a stopped instance again with its own configuration (its broker client id, so its session). */
  restartInstance(stopped: RunningSwitchboard): Promise<RunningSwitchboard>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  readonly mosquitto: PrivateMosquitto;
  readonly databaseUrl: string;
  readonly instances: number;
  readonly clock?: () => Clock;
  readonly env?: NodeJS.ProcessEnv;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { mosquitto } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-cluster-'));
  const run = randomBytes(3).toString('hex');
  const admin = await DynsecAdmin.connect({
    url: mosquitto.url,
    username: mosquitto.admin.username,
    password: mosquitto.admin.password,
    reservedUsernames: [],
  });
  const instances: RunningSwitchboard[] = [];
  const envs = new Map<RunningSwitchboard, NodeJS.ProcessEnv>();
  let count = 0;
  const start = async (env: NodeJS.ProcessEnv) => {
    const sb = await startSwitchboard(loadConfig(env), options.clock ? { clock: options.clock() } : {});
    instances.push(sb);
    envs.set(sb, env);
    return sb;
  };
  const addInstance = async () => {
    // One broker client per instance, each bound to its own client id (mosquitto-dynsec.ts).
    const n = ++count;
    const username = `switchboard-server-${run}-${n}`;
    const password = randomBytes(18).toString('base64url');
    await admin.setupServer(username, password, username);
    const env = {
      PORT: '0',
      DEMO: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      MQTT_URL: mosquitto.url,
      MQTT_USERNAME: username,
      MQTT_PASSWORD: password,
      MQTT_CLIENT_ID: username,
      ...options.env,
    };
    return start(env);
  };
  try {
    for (let i = 0; i < options.instances; i++) await addInstance();
  } catch (error) {
    await Promise.all(instances.map((sb) => sb.close()));
    await admin.close();
    throw error;
  }
  return {
    instances,
    addInstance,
    restartInstance: (stopped) => start(envs.get(stopped)!),
    async addAgent(agentId) {
      const password = randomBytes(18).toString('base64url');
      await admin.addAgent(agentId, password);
      return password;
    },
    async close() {
      await Promise.all(instances.map((sb) => sb.close().catch(() => undefined)));
      await admin.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
