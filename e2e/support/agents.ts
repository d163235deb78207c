// A real agent for journeys: a credential from the agents CLI (against the running server's data
// directory) and an MQTT 5 connection over TCP to the broker the server announced.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';

const run = promisify(execFile);

export interface TestAgent {
  readonly agentId: string;
  readonly client: MqttClient;
  /** Publishes an AOR envelope from this agent; resolves on the broker's PUBACK. */
  send(topic: string, type: string, roomId: string, payload: Record<string, unknown>): Promise<string>;
  /** Resolves with the first message on a topic matching `test`, counting messages already seen. */
  waitFor(test: (topic: string, envelope: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Heartbeats into a room every `everyMs` until closed. */
  heartbeat(roomId: string, description: string, everyMs?: number): void;
  close(): Promise<void>;
}

/** `npm run cli -- agents add <agentId> --json`, as an administrator would. */
export async function addAgentCredential(agentId: string): Promise<string> {
  const dataDir = process.env.SWITCHBOARD_DATA_DIR;
  if (!dataDir) throw new Error('global-setup did not set SWITCHBOARD_DATA_DIR');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'agents', 'add', agentId, '--json'], {
    env: { ...process.env, DATA_DIR: dataDir },
    timeout: 20_000,
  });
  return (JSON.parse(stdout) as { password: string }).password;
}

export async function connectTestAgent(agentId: string): Promise<TestAgent> {
  const url = process.env.SWITCHBOARD_MQTT_URL;
  if (!url) throw new Error('global-setup did not set SWITCHBOARD_MQTT_URL (no "MQTT for agents on" line)');
  const password = await addAgentCredential(agentId);
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, username: agentId, password, clientId: `${agentId}-${randomUUID().slice(0, 6)}`, reconnectPeriod: 0 });
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
  await client.subscribeAsync(['rooms/+/public', 'rooms/+/control', `rooms/+/agents/${agentId}/inbox`], { qos: 1 });
  let timer: NodeJS.Timeout | undefined;
  const send: TestAgent['send'] = async (topic, type, roomId, payload) => {
    const id = `msg_${randomUUID()}`;
    const envelope = { id, type, room_id: roomId, from: { kind: 'agent', id: agentId }, ts: Math.floor(Date.now() / 1000), payload };
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
      const beat = () => void send(`rooms/${roomId}/agents/${agentId}/heartbeat`, 'heartbeat', roomId, { ts: Math.floor(Date.now() / 1000), description }).catch(() => undefined);
      beat();
      timer = setInterval(beat, everyMs);
    },
    async close() {
      clearInterval(timer);
      await client.endAsync(true);
    },
  };
}
