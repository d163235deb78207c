// Clients that subscribe and then never read: an operator's console on the
// /mqtt WebSocket and an agent on TCP, each speaking just enough MQTT 3.1.1 by hand to CONNECT
// and SUBSCRIBE, then pausing their socket so the kernel buffers fill and the server must queue.
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import type { EmbeddedBroker } from '../mqtt/embedded-broker';

export interface FrozenClient {
  readonly clientId: string;
  close(): Promise<void>;
}

/** MQTT's variable byte integer (§2.2.3). */
function remainingLength(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}

const utf8 = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
};

const packet = (first: number, body: Buffer) =>
  Buffer.concat([Buffer.from([first]), remainingLength(body.length), body]);

/** CONNECT, clean session, keep-alive 0 (§3.1.2.10: no keep-alive, so only the send limits can end it). */
function connectPacket(clientId: string, credentials?: { username: string; password: string }): Buffer {
  const flags = 0x02 | (credentials ? 0xc0 : 0);
  const payload = [utf8(clientId), ...(credentials ? [utf8(credentials.username), utf8(credentials.password)] : [])];
  return packet(0x10, Buffer.concat([utf8('MQTT'), Buffer.from([4, flags, 0, 0]), ...payload]));
}

/** SUBSCRIBE one filter at QoS 1, packet id 1 (§3.8: fixed header flags 0b0010). */
const subscribePacket = (filter: string) =>
  packet(0x82, Buffer.concat([Buffer.from([0, 1]), utf8(filter), Buffer.from([1])]));

/** CONNACK (4 bytes) and a SUBACK for one filter (5 bytes). */
const HANDSHAKE_BYTES = 9;

/** An agent on MQTT/TCP that stops reading once subscribed. */
export async function frozenAgent(
  brokerUrl: string,
  clientId: string,
  password: string,
  filter: string,
): Promise<FrozenClient> {
  const url = new URL(brokerUrl);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= HANDSHAKE_BYTES) {
        socket.pause();
        socket.removeAllListeners('data');
        resolve();
      }
    });
    socket.write(Buffer.concat([connectPacket(clientId, { username: clientId, password }), subscribePacket(filter)]));
  });
  return { clientId, close: async () => void socket.destroy() };
}

/** An operator's console on MQTT over WebSocket (as the browser connects) that stops reading once subscribed. */
export async function frozenOperator(
  broker: EmbeddedBroker,
  did: string,
  clientId: string,
  filter: string,
): Promise<FrozenClient> {
  const http = createServer();
  broker.attachWebSocket(http, async () => ({ kind: 'operator', did, role: 'observer' }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const ws = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/mqtt`, 'mqtt');
  ws.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let received = 0;
  await new Promise<void>((resolve) => {
    ws.on('message', (data: Buffer) => {
      received += data.length;
      if (received >= HANDSHAKE_BYTES) {
        ws.pause(); // pauses the socket: nothing more is read from the kernel
        ws.removeAllListeners('message');
        resolve();
      }
    });
    ws.send(connectPacket(clientId));
    ws.send(subscribePacket(filter));
  });
  return {
    clientId,
    close: async () => {
      ws.terminate();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
