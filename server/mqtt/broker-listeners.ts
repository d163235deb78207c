// Where the embedded broker takes connections: MQTT over TCP for agents, MQTT over WebSocket at
// /mqtt on the console's HTTP server for the browser, and how it stops taking them.
import { STATUS_CODES, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { isCodedError } from '@shared/errors';
import { statusForCode } from '../http/errors';
import type { BrokerIdentity } from './acl';
import { sameGrant } from './broker-identities';
import type { StillValid } from './revalidate';

/** Generous hard cap per packet; envelopes over 256 KiB are refused with a coded reject above it. */
export const MAX_PACKET_BYTES = 512 * 1024;

/** Hands an accepted connection to the broker; `socket` is a WebSocket's transport. */
export type HandleConnection = (connection: Duplex, request?: IncomingMessage, socket?: Socket) => void;

/** Tells the broker who a WebSocket upgrade authenticated as, before its CONNECT arrives. */
export type NoteUpgrade = (
  request: IncomingMessage,
  upgrade: { identity: BrokerIdentity; stillValid: StillValid },
) => void;

export class BrokerListeners {
  readonly #handle: HandleConnection;
  readonly #noteUpgrade: NoteUpgrade;
  #tcp: NetServer | undefined;
  #wss: WebSocketServer | undefined;
  #listenersClosed: { readonly ws: Promise<void>; readonly tcp: Promise<void> } | undefined;

  constructor(handle: HandleConnection, noteUpgrade: NoteUpgrade) {
    this.#handle = handle;
    this.#noteUpgrade = noteUpgrade;
  }

  /** MQTT over TCP for agents. Nagle's delay would add ~13–24 ms per hop, so it is off. */
  listenTcp(host: string, port: number): Promise<AddressInfo> {
    const server = createServer((socket: Socket) => {
      socket.setNoDelay(true);
      this.#handle(socket);
    });
    this.#tcp = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    });
  }

  /**
   * MQTT over WebSocket at `/mqtt` on the console's HTTP server. `authenticate` resolves the
   * operator from the upgrade request (session cookie, same origin); without one the upgrade is
   * refused before any MQTT byte is read (401), or with the status of the CodedError it throws
   * (421 for a Host this server does not answer to). It is asked again about the same request while the
   * connection is open: once it answers otherwise (logged out, expired, another role), the
   * connection ends.
   */
  attachWebSocket(
    server: HttpServer,
    authenticate: (request: IncomingMessage) => Promise<BrokerIdentity | null>,
  ): void {
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_PACKET_BYTES,
      handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false),
    });
    this.#wss = wss;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/mqtt') return; // other upgrade handlers may claim it
      authenticate(request).then(
        (identity) => {
          if (!identity) return refuseUpgrade(socket, 401, 'Unauthorized');
          (socket as Socket).setNoDelay?.(true);
          wss.handleUpgrade(request, socket, head, (ws) => {
            const stillValid: StillValid = async () => {
              const again = await authenticate(request);
              return again !== null && sameGrant(again, identity);
            };
            this.#noteUpgrade(request, { identity, stillValid });
            const stream = createWebSocketStream(ws);
            stream.on('error', () => stream.destroy());
            // The stream hands ws one frame at a time: the rest waits in the stream's queue.
            this.#handle(stream, request, socket as Socket);
          });
        },
        (error: unknown) => {
          // A coded refusal (a Host this server does not answer to: 421) is answered as the HTTP routes answer it.
          if (!isCodedError(error)) return refuseUpgrade(socket, 500, 'Internal Server Error');
          const status = statusForCode(error.code);
          refuseUpgrade(
            socket,
            status,
            STATUS_CODES[status] ?? 'Refused',
            JSON.stringify({ code: error.code, message: error.message }),
          );
        },
      );
    });
  }

  /**
   * Takes no new connection and ends the consoles' WebSockets (an HTTP server's close waits for
   * its upgraded sockets); agents connected over TCP stay until the broker closes.
   */
  async stopListening(): Promise<void> {
    this.#listenersClosed ??= this.#closeListeners();
    await this.#listenersClosed.ws;
  }

  /** Resolves once the TCP listener is closed (after stopListening and the broker's disconnects). */
  async tcpClosed(): Promise<void> {
    await this.#listenersClosed!.tcp;
  }

  #closeListeners(): { ws: Promise<void>; tcp: Promise<void> } {
    for (const client of this.#wss?.clients ?? []) client.terminate();
    const ws = new Promise<void>((resolve) => this.#wss?.close(() => resolve()) ?? resolve());
    // A TCP server's close waits for every open connection to end, and connected agents never
    // end theirs: stop listening now, and close() lets aedes disconnect every client, then waits
    // (decisions-server.md §22).
    const tcp = ws.then(
      () => new Promise<void>((resolve) => (this.#tcp ? this.#tcp.close(() => resolve()) : resolve())),
    );
    return { ws, tcp };
  }
}

function refuseUpgrade(socket: Duplex, status: number, text: string, json = ''): void {
  const type = json ? 'Content-Type: application/json\r\n' : '';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
}
