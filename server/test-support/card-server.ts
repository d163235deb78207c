// A small HTTP server that serves A2A Agent Cards (node:http on an ephemeral loopback port), for
// the import tests and journeys: each path answers what `routes` says, and every request is
// recorded, so a test can tell that a refused URL was never fetched.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CardRoute {
  readonly status?: number;
  readonly body: string | Uint8Array;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface CardServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: string[];
  routes: Record<string, CardRoute>;
  close(): Promise<void>;
}

/** A valid A2A 0.3 card named `name`, with two skills. */
export function sampleCard(name: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocolVersion: '0.3.0',
    name,
    description: `${name} plans trips: flights, trains and hotels.`,
    url: 'https://travel.example/a2a',
    preferredTransport: 'JSONRPC',
    version: '2.1.0',
    provider: { organization: 'Example Travel', url: 'https://travel.example' },
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'book-flight',
        name: 'Book a flight',
        description: 'Finds and books a flight between two cities.',
        tags: ['travel', 'flights'],
        examples: ['A flight from Lisbon to Oslo on Friday'],
      },
      {
        id: 'find-hotel',
        name: 'Find a hotel',
        description: 'Suggests hotels near an address.',
        tags: ['travel', 'hotels'],
      },
    ],
    ...patch,
  };
}

export async function startCardServer(routes: Record<string, CardRoute> = {}): Promise<CardServer> {
  const requests: string[] = [];
  const state = { routes };
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const route = state.routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    res
      .writeHead(route.status ?? 200, { 'content-type': route.contentType ?? 'application/json', ...route.headers })
      .end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get routes() {
      return state.routes;
    },
    set routes(next) {
      state.routes = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
