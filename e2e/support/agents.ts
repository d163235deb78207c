// A real agent for journeys: a credential from the agents CLI (against the running server's data
// directory) and an MQTT 5 connection over TCP to the broker the server announced.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
import { nextConnect } from '../../server/mqtt/next-connect';
import { SERVER_CLI } from '../../server/test-support/compiled-entry';

const run = promisify(execFile);

export interface TestAgent {
  readonly agentId: string;
  readonly client: MqttClient;
  /** Publishes an AOR envelope from this agent; resolves on the broker's PUBACK. */
  send(topic: string, type: string, roomId: string, payload: Record<string, unknown>): Promise<string>;
  /** Resolves with the first message on a topic matching `test`, counting messages already seen. */
  waitFor(
    test: (topic: string, envelope: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Heartbeats into a room every `everyMs` until closed. */
  heartbeat(roomId: string, description: string, everyMs?: number): void;
  /** Connects again after the broker dropped it (a server restart); its subscriptions are renewed. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

/** A server of a journey's own, instead of the one global-setup started. */
export interface AgentServer {
  readonly mqttUrl: string;
  readonly dataDir: string;
  /**
   * With an external broker (MQTT_URL): the CLI's broker settings, so `agents add` provisions
   * Mosquitto too; the agent then connects with its id as client id, which its credential is bound to.
   */
  readonly externalBrokerEnv?: Record<string, string>;
}

/**
 * `npm run cli -- agents add <agentId> --rotate --json`, as an administrator would. `--rotate`: a
 * retried journey adds its agents again on the same server and gets a fresh password for each.
 */
export async function addAgentCredential(
  agentId: string,
  dataDir = process.env.SWITCHBOARD_DATA_DIR,
  env: Record<string, string> = {},
): Promise<string> {
  if (!dataDir) throw new Error('global-setup did not set SWITCHBOARD_DATA_DIR');
  const { stdout } = await run(process.execPath, [...SERVER_CLI, 'agents', 'add', agentId, '--rotate', '--json'], {
    env: { ...process.env, ...env, DATA_DIR: dataDir },
    timeout: 20_000,
  });
  return (JSON.parse(stdout) as { password: string }).password;
}

export async function connectTestAgent(agentId: string, server?: AgentServer): Promise<TestAgent> {
  const url = server?.mqttUrl ?? process.env.SWITCHBOARD_MQTT_URL;
  if (!url) throw new Error('global-setup did not set SWITCHBOARD_MQTT_URL (no "MQTT for agents on" line)');
  const password = await addAgentCredential(
    agentId,
    server?.dataDir ?? process.env.SWITCHBOARD_DATA_DIR,
    server?.externalBrokerEnv,
  );
  // Client ids are bound to the agent: its agentId, or one under it (`{agentId}/…`, embedded broker only).
  const clientId = server?.externalBrokerEnv ? agentId : `${agentId}/${randomUUID().slice(0, 6)}`;
  const client = await mqtt.connectAsync(url, {
    protocolVersion: 5,
    username: agentId,
    password,
    clientId,
    reconnectPeriod: 0,
  });
  // A server killed under it resets the socket; without a listener that error would end the
  // test run. A dropped agent shows as a `waitFor` that times out instead.
  client.on('error', () => undefined);
  const seen: { topic: string; envelope: Record<string, unknown> }[] = [];
  const waiters = new Set<() => void>();
  client.on('message', (topic, payload) => {
    try {
      seen.push({ topic, envelope: JSON.parse(payload.toString()) as Record<string, unknown> });
    } catch {
      return;
    }
    for (const w of waiters) w();
  });
  const filters = ['rooms/+/public', 'rooms/+/control', `rooms/+/agents/${agentId}/inbox`];
  await client.subscribeAsync(filters, { qos: 1 });
  let timer: NodeJS.Timeout | undefined;
  const send: TestAgent['send'] = async (topic, type, roomId, payload) => {
    const id = `msg_${randomUUID()}`;
    const envelope = {
      id,
      type,
      room_id: roomId,
      from: { kind: 'agent', id: agentId },
      ts: Math.floor(Date.now() / 1000),
      payload,
    };
    await client.publishAsync(topic, JSON.stringify(envelope), { qos: 1 });
    return id;
  };
  return {
    agentId,
    client,
    send,
    waitFor: (test, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = seen.find((m) => test(m.topic, m.envelope));
          if (!hit) return false;
          waiters.delete(check);
          clearTimeout(t);
          resolve(hit.envelope);
          return true;
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${agentId} saw no matching message within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    heartbeat(roomId, description, everyMs = 2_000) {
      const beat = () =>
        void send(`rooms/${roomId}/agents/${agentId}/heartbeat`, 'heartbeat', roomId, {
          ts: Math.floor(Date.now() / 1000),
          description,
        }).catch(() => undefined);
      beat();
      timer = setInterval(beat, everyMs);
    },
    reconnect: async () => {
      await nextConnect(client, () => client.reconnect());
      // Subscribed before the caller publishes, so what the gateway approves next is seen here.
      await client.subscribeAsync(filters, { qos: 1 });
    },
    async close() {
      clearInterval(timer);
      await client.endAsync(true);
    },
  };
}
