// Waiting for an mqtt.js client's next connect, which mqtt.js's own connectAsync cannot do for a
// client made with `manualConnect` or for a reconnect.
import type { MqttClient } from 'mqtt';

/** Calls `start` (connect or reconnect) and settles with the client's next `connect` or `error`. */
export function nextConnect(client: MqttClient, start: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onConnect = () => {
      client.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      client.off('connect', onConnect);
      reject(error);
    };
    client.once('connect', onConnect);
    client.once('error', onError);
    start();
  });
}
