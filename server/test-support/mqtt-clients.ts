// Real MQTT clients for integration tests, and a way to show that a message never arrives
// without timing: a sentinel sent afterwards on an allowed path arrives first, so anything
// that was going to arrive would already have.
import { randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

export interface Received {
  readonly topic: string;
  readonly payload: string;
}

export interface TestClient {
  readonly client: MqttClient;
  readonly received: Received[];
  /** Resolves with everything received up to and including the first message on `topic` whose payload contains `marker`. */
  until(topic: string, marker: string): Promise<Received[]>;
}

/**
 * A client id the broker accepts for these credentials (server/mqtt/client-ids.ts): one under the
 * agent's own id, or, without a username (a console), an empty one the broker assigns.
 */
export const ownClientId = (options: IClientOptions) =>
  options.clientId ?? (options.username ? `${options.username}/${randomUUID().slice(0, 8)}` : '');

export async function connectClient(url: string, options: IClientOptions = {}): Promise<TestClient> {
  const client = await mqtt.connectAsync(url, {
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    protocolVersion: 5,
    ...options,
    clientId: ownClientId(options),
  });
  const received: Received[] = [];
  const waiters: { topic: string; marker: string; resolve: (r: Received[]) => void }[] = [];
  client.on('message', (topic, payload) => {
    received.push({ topic, payload: payload.toString() });
    for (const w of [...waiters]) {
      if (w.topic === topic && payload.toString().includes(w.marker)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve([...received]);
      }
    }
  });
  return {
    client,
    received,
    until: (topic, marker) =>
      new Promise((resolve) => {
        const seen = received.findIndex((r) => r.topic === topic && r.payload.includes(marker));
        if (seen >= 0) resolve(received.slice(0, seen + 1));
        else waiters.push({ topic, marker, resolve });
      }),
  };
}

/** Connection refusal as an error message, or 'connected'. */
export async function tryConnect(url: string, options: IClientOptions): Promise<string> {
  try {
    const client = await mqtt.connectAsync(url, {
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      ...options,
      clientId: ownClientId(options),
    });
    await client.endAsync(true);
    return 'connected';
  } catch (error) {
    return (error as Error).message;
  }
}

/** SUBACK return codes for one filter: 0–2 granted QoS, 128 (v3) or ≥ 0x80 (v5) refused. */
export async function subscribeCode(client: MqttClient, filter: string): Promise<number> {
  try {
    const granted = await client.subscribeAsync(filter, { qos: 1 });
    return granted[0]?.qos ?? -1;
  } catch (error) {
    // mqtt.js v5 rejects when SUBACK carries a failure reason code; report that code.
    const granted = (error as { packet?: { granted?: (number | { qos: number })[] } }).packet?.granted?.[0];
    if (granted === undefined) throw error;
    return typeof granted === 'number' ? granted : granted.qos;
  }
}
