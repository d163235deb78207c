// TCP_NODELAY on the broker's agent sockets. With Nagle's algorithm on, a small
// MQTT packet written while an earlier one is still unacknowledged waits for the peer's delayed
// ACK, tens of milliseconds a hop. Node offers no getsockopt, so the test watches the call that
// sets the option, on the very sockets the broker accepted for real agent connections.
import { Socket } from 'node:net';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { EmbeddedBroker } from './embedded-broker';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';

let broker: EmbeddedBroker;
let port: number;
const clients: TestClient[] = [];

beforeEach(async () => {
  broker = await EmbeddedBroker.create({ verifyAgent: async (_agentId, password) => password === 'pw' });
  ({ port } = await broker.listenTcp('127.0.0.1', 0));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clients.splice(0).map((c) => c.client.endAsync(true)));
  await broker.close();
});

it('turns Nagle off on the server side of every agent connection', async () => {
  const setNoDelay = vi.spyOn(Socket.prototype, 'setNoDelay');
  for (const agentId of ['agent.researcher', 'agent.analyst']) {
    clients.push(await connectClient(`mqtt://127.0.0.1:${port}`, { username: agentId, password: 'pw' }));
  }
  for (const { client } of clients) {
    // The broker's end of this connection: local port is the broker's, remote port is the client's.
    const clientPort = (client.stream as Socket).localPort;
    const onServerSide = setNoDelay.mock.contexts
      .map((socket, i) => ({ socket: socket as Socket, args: setNoDelay.mock.calls[i]! }))
      .filter(({ socket }) => socket.localPort === port && socket.remotePort === clientPort);
    expect(onServerSide.length).toBeGreaterThan(0);
    // setNoDelay() without an argument enables it too; false (or nothing at all) fails.
    expect(onServerSide.at(-1)!.args[0] ?? true).toBe(true);
  }
});
