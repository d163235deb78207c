// A client that sends its request slowly (headers, then one body byte now and then) is cut at the
// configured request timeout, and one address cannot hold more than its share of connections
// (decisions-server.md §44). A real listener over real sockets; the timeout is small here, and
// the only time bound asserted is a generous liveness one.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { ConfigError, loadConfig } from '../config';
import { parseTrustedProxies, type TrustedProxies } from '../http/client-address';
import { closeHttp, listenHttp, type HttpListener } from '../runtime/http-listener';
import { tempStore, type TempStore } from '../test-support/temp-store';

let temp: TempStore | undefined;
let listener: HttpListener | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  if (listener) await closeHttp(listener.server);
  await temp?.dispose();
  listener = temp = undefined;
});

async function listen(
  limits: { requestTimeoutMs?: number; connectionsPerAddress?: number },
  trusted: TrustedProxies = [],
) {
  temp = tempStore();
  listener = await listenHttp(
    testApp({ staticDir: '/nonexistent', store: temp.store }),
    '127.0.0.1',
    0,
    limits,
    trusted,
  );
  return listener.address.port;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    sockets.push(socket);
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent once it closes the connection. */
const closed = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
  });

describe('slow requests', () => {
  it('cuts a client that sends headers, then one body byte every 300 ms, at the request timeout', async () => {
    const port = await listen({ requestTimeoutMs: 1_000 });
    const socket = await open(port);
    const ended = closed(socket);
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 300);
    const started = Date.now();
    const outcome = await Promise.race([
      ended,
      new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 15_000)),
    ]);
    clearInterval(drip);
    expect(outcome).not.toBe('still open');
    expect(outcome).toMatch(/^HTTP\/1\.1 408|^$/);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 20_000);

  it('cuts a client that never finishes its headers', async () => {
    const port = await listen({ requestTimeoutMs: 1_000 });
    const socket = await open(port);
    const ended = closed(socket);
    socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 300);
    const outcome = await Promise.race([
      ended,
      new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 15_000)),
    ]);
    clearInterval(drip);
    expect(outcome).not.toBe('still open');
  }, 20_000);
});

describe('connections per address', () => {
  it('closes connections past the cap at once, and accepts again once one is freed', async () => {
    const port = await listen({ connectionsPerAddress: 3 });
    const held = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    await closed(extra);
    // The held ones still work.
    const answer = closed(held[0]!);
    held[0]!.end(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    const again = await open(port);
    const served = closed(again);
    again.end(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(await served).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('connections from a trusted proxy (decisions-server.md §77)', () => {
  it('are not capped per address: every operator behind the proxy shares its address', async () => {
    const port = await listen({ connectionsPerAddress: 3 }, parseTrustedProxies('127.0.0.1')!);
    await Promise.all([open(port), open(port), open(port)]);
    const fourth = await open(port);
    const served = closed(fourth);
    fourth.end(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(await served).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('HTTP_REQUEST_TIMEOUT_MS and HTTP_CONNECTIONS_PER_ADDRESS', () => {
  it('default to 30 s and 256, and refuse what is not a whole number in range with a one-line ConfigError', () => {
    expect(loadConfig({}).listen).toEqual({ requestTimeoutMs: 30_000, connectionsPerAddress: 256 });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_CONNECTIONS_PER_ADDRESS: '16' }).listen).toEqual({
      requestTimeoutMs: 5_000,
      connectionsPerAddress: 16,
    });
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '10s' })).toThrow(ConfigError);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '10s' })).toThrow(
      /^HTTP_REQUEST_TIMEOUT_MS must be a whole number/,
    );
    expect(() => loadConfig({ HTTP_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(
      /^HTTP_CONNECTIONS_PER_ADDRESS must be a whole number/,
    );
  });
});
