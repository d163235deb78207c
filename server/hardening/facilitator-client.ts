// A facilitator on MQTT over WebSocket against a test harness's embedded broker: a real operator
// client, as the console is one. The cookie check in front of the upgrade is not under test here
// (server/http/session.test.ts covers it), so every upgrade is this operator.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmbeddedBroker } from '../mqtt/embedded-broker';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';

export interface OperatorClient extends TestClient {
  close(): Promise<void>;
}

export async function connectOperator(
  broker: EmbeddedBroker,
  did: string,
  options: { role?: 'facilitator' | 'observer'; clientId?: string } = {},
): Promise<OperatorClient> {
  const role = options.role ?? 'facilitator';
  const http = createServer();
  broker.attachWebSocket(http, async () => ({ kind: 'operator', did, role }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/mqtt`;
  const client = await connectClient(url, options.clientId === undefined ? {} : { clientId: options.clientId }).catch(
    async (error: unknown) => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      throw error;
    },
  );
  return {
    ...client,
    async close() {
      await client.client.endAsync(true);
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
