// A TCP proxy between the browser and the server that a journey can cut: every open connection
// (the console's /mqtt WebSocket included) is dropped, and new ones are refused, until it is
// restored. It stands in for the browser losing its network.
//
// Why not `context.setOffline(true)`: Chromium's offline emulation fails new requests but leaves
// open WebSockets sending and receiving (microsoft/playwright#4910); the console, whose MQTT
// WebSocket lives in a worker, stayed "Live" through 11 s offline when we tried it.
import { createConnection, createServer, type Socket } from 'node:net';

export interface CuttableProxy {
  /** `http://127.0.0.1:<port>`: the address the browser uses instead of the server's. */
  readonly url: string;
  /** Drops every open connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Forwards 127.0.0.1:<own port> to `target` (an http:// URL), byte for byte. */
export async function startCuttableProxy(target: string): Promise<CuttableProxy> {
  const upstream = new URL(target);
  const open = new Set<Socket>();
  let cut = false;
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    client.on('error', () => undefined);
    // Refused while cut: the browser sees a connection reset, as on a dead network.
    if (cut) return void client.resetAndDestroy();
    const server = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    track(server);
    server.on('error', () => client.destroy());
    client.on('error', () => server.destroy());
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    client.pipe(server);
    server.pipe(client);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
