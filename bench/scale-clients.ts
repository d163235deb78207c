// Lean MQTT 3.1.1 clients for bench/scale.ts: a socket and mqtt-packet's parser each, a few KB
// apiece, so one bench process can hold ten thousand of them beside the server it measures
// (mqtt.js clients cost far more memory and CPU per connection).
import { connect as tcpConnect, type Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';

export interface LeanClient {
  readonly socket: Socket;
  publish(topic: string, payload: string): void;
  /** Resolves when the connection ends, however it ends. */
  readonly closed: Promise<void>;
  end(): void;
}

export interface LeanConnect {
  readonly host: string;
  readonly port: number;
  readonly clientId: string;
  readonly username?: string;
  readonly password?: string;
  readonly keepaliveSeconds?: number;
}

/** Connects and resolves once CONNACK accepts; rejects with the return code otherwise. */
export function leanConnect(options: LeanConnect): Promise<LeanClient> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: options.host, port: options.port, noDelay: true });
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    let settled = false;
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once('close', () => fail(new Error(`closed before CONNACK (${options.clientId})`)));
    socket.on('data', (chunk) => parser.parse(chunk));
    parser.on('error', fail);
    parser.on('packet', (packet) => {
      if (packet.cmd !== 'connack' || settled) return;
      if (packet.returnCode !== 0) return fail(new Error(`CONNACK ${packet.returnCode} for ${options.clientId}`));
      settled = true;
      socket.on('error', () => undefined);
      resolve({
        socket,
        closed,
        publish(topic, payload) {
          if (!socket.destroyed)
            socket.write(mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 0, retain: false, dup: false }));
        },
        end() {
          socket.destroy();
        },
      });
    });
    socket.write(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: options.clientId,
        keepalive: options.keepaliveSeconds ?? 120,
        ...(options.username === undefined ? {} : { username: options.username }),
        ...(options.password === undefined ? {} : { password: Buffer.from(options.password) }),
      }),
    );
  });
}

/**
 * Connects every one of `count` clients, at most `inFlight` CONNECTs outstanding at once (what
 * reconnect jitter gives a real fleet); a refusal fails the whole run.
 */
export async function connectAll(
  count: number,
  inFlight: number,
  make: (i: number) => LeanConnect,
): Promise<LeanClient[]> {
  const clients: LeanClient[] = new Array<LeanClient>(count);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < count) {
      const i = next++;
      clients[i] = await leanConnect(make(i));
    }
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
  return clients;
}
