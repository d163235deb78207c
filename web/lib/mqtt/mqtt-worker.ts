/// <reference lib="webworker" />
// mqtt.js runs here, off the page's main thread: its ~95 KB evaluate in the worker rather than in
// a long task while the room opens, and packet parsing at 200 messages/s no longer competes with
// rendering and input (docs/decisions-web.md §3). The page talks to it through
// worker-client.ts; the protocol is worker-protocol.ts.
import mqtt, { type MqttClient } from 'mqtt';
import type { ConnectionFlags, WorkerEvent, WorkerRequest } from './worker-protocol';

declare const self: DedicatedWorkerGlobalScope;

let client: MqttClient | undefined;

const flags = (): ConnectionFlags => ({
  connected: client?.connected ?? false,
  reconnecting: client?.reconnecting ?? false,
  disconnected: client?.disconnected ?? true,
});

function emit(event: WorkerEvent, transfer: Transferable[] = []): void {
  self.postMessage(event, transfer);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function done(id: number, work: Promise<unknown>): void {
  work.then(
    () => emit({ ev: 'done', id }),
    (error: unknown) => emit({ ev: 'done', id, error: messageOf(error) }),
  );
}

function notConnected(): Promise<never> {
  return Promise.reject(new Error('Not connected to the broker.'));
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  switch (request.op) {
    case 'connect': {
      client?.end(true);
      const c = mqtt.connect(request.options.url, {
        protocolVersion: 5,
        clientId: request.options.clientId,
        clean: true,
        // Reconnects are the page's (with backoff and a backfill), not mqtt.js's fixed period.
        reconnectPeriod: 0,
        connectTimeout: 10_000,
        keepalive: 30,
        // mqtt-packet otherwise pre-encodes all 65,536 two-byte numbers on the first packet.
        writeCache: false,
        // Plain timers: 'auto' would start yet another worker from a blob: URL, which the CSP refuses.
        timerVariant: 'native',
      });
      client = c;
      c.on('connect', () => emit({ ev: 'connect', flags: flags() }));
      c.on('close', () => emit({ ev: 'close', flags: flags() }));
      c.on('error', (error) => emit({ ev: 'error', flags: flags(), message: messageOf(error) }));
      c.on('message', (topic, payload) => {
        // A copy we own, so its buffer can be handed over rather than cloned.
        const bytes = new Uint8Array(payload);
        emit({ ev: 'message', topic, payload: bytes }, [bytes.buffer]);
      });
      return;
    }
    case 'reconnect':
      if (client && !client.connected) client.reconnect();
      return;
    case 'end':
      client?.end(true);
      client = undefined;
      return;
    case 'subscribe':
      done(request.id, client?.connected ? client.subscribeAsync([...request.filters], { qos: 1 }) : notConnected());
      return;
    case 'unsubscribe':
      if (client?.connected) client.unsubscribe([...request.filters]);
      return;
    case 'publish':
      // QoS 1: the PUBACK carries the broker's verdict (MQTT 5 reason code), so a refusal is seen.
      done(
        request.id,
        client?.connected ? client.publishAsync(request.topic, request.payload, { qos: 1 }) : notConnected(),
      );
      return;
    default: {
      const never: never = request;
      return never;
    }
  }
};
