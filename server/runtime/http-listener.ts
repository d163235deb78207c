// The HTTP listener of an instance: its request deadline and per-address connection cap
// (decisions-server.md §44; a trusted proxy's connections are the proxy's to cap, §77), and a
// close that ends every connection.
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { AppType } from '../app';
import { ConfigError } from '../config';
import { isTrustedProxy, type TrustedProxies } from '../http/client-address';
import { DEFAULT_LISTEN_LIMITS, type ListenLimits } from '../http/limits';

export type HttpListener = { readonly server: ServerType; readonly address: AddressInfo };

/** The HTTP listener, held to the request timeout and the per-address connection cap (decisions-server.md §44). */
export function listenHttp(
  app: AppType,
  host: string,
  port: number,
  limits: Partial<ListenLimits> = {},
  trustedProxies: TrustedProxies = [],
): Promise<HttpListener> {
  const requestTimeout = limits.requestTimeoutMs ?? DEFAULT_LISTEN_LIMITS.requestTimeoutMs;
  const perAddress = limits.connectionsPerAddress ?? DEFAULT_LISTEN_LIMITS.connectionsPerAddress;
  return new Promise((resolve, reject) => {
    // Headers within the lesser of the request timeout and 10 s. A long-poll is not cut: its
    // request is received at once, and the wait is its response.
    const server = serve(
      {
        fetch: app.fetch,
        hostname: host,
        port,
        serverOptions: {
          requestTimeout,
          headersTimeout: Math.min(requestTimeout, 10_000),
          // Node checks both timeouts on this interval (30 s by default, which would let a slow client run late).
          connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeout / 4))),
        },
      },
      (address) => resolve({ server, address }),
    );
    capConnectionsPerAddress(server as HttpServer, perAddress, trustedProxies);
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new ConfigError(`port ${port} on ${host} is taken; set PORT to a free port (or 0 for any).`));
      else if (error.code === 'EACCES')
        reject(new ConfigError(`not allowed to listen on ${host}:${port}; set PORT above 1023 or HOST.`));
      else reject(new ConfigError(`cannot listen on ${host}:${port}: ${error.message}`));
    });
  });
}

/**
 * Counts each address's open sockets and destroys a new one past `max` before any byte is read.
 * A trusted proxy is every operator behind it, and which one a socket carries is not known before
 * its request is read: its sockets are not counted here (the proxy caps its clients').
 */
function capConnectionsPerAddress(server: HttpServer, max: number, trusted: TrustedProxies): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (isTrustedProxy(socket.remoteAddress, trusted)) return;
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Stops listening and ends every connection, long-polls and keep-alive sockets included: a peer
 * polling this server (another instance's bridge) would otherwise keep reusing a kept-alive
 * socket served by a process whose store is already closed.
 */
export async function closeHttp(server: ServerType): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  (server as HttpServer).closeAllConnections();
  await closed;
}

/** A listener's address as a URL's host part (IPv6 in brackets). */
export const urlHost = (address: AddressInfo) => (address.family === 'IPv6' ? `[${address.address}]` : address.address);
