// A real embedded broker, a real SQLite store in a temporary directory and the gateway, wired
// as the server wires them, with an injectable clock. For integration tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Gateway, isCandidate } from '../gateway/gateway';
import { lateGateway } from '../gateway/late-gateway';
import { EmbeddedBroker } from '../mqtt/embedded-broker';
import { PublishQuotas, type PublishQuotaLimits } from '../mqtt/publish-quotas';
import type { SendLimits } from '../mqtt/send-limits';
import { HistoryRecorder } from '../rooms/history-recorder';
import { RoomRegistry } from '../rooms/room-registry';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import type { Store } from '../store/store';
import { connectClient, type TestClient } from './mqtt-clients';

export interface RoomHarness {
  readonly store: Store;
  readonly broker: EmbeddedBroker;
  readonly gateway: Gateway;
  readonly rooms: RoomRegistry;
  readonly url: string;
  /** Milliseconds; tests move it. */
  clock: { now: number };
  agent(agentId: string, protocolVersion?: 4 | 5): Promise<TestClient>;
  /** A client that sees what an operator sees (rooms/# and review notices). */
  watcher(): Promise<TestClient>;
  /** Publishes as a facilitator would (through the broker, recorded in history). */
  facilitatorPublish(topic: string, envelope: unknown): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const PASSWORD = 'test-password';

export interface RoomHarnessOptions {
  readonly dataDir?: string;
  readonly sendLimits?: SendLimits;
  /** Per-agent publish quotas on the broker, on the harness's clock; none when absent. */
  readonly publishQuotas?: PublishQuotaLimits;
}

export async function startRoomHarness(options: RoomHarnessOptions = {}): Promise<RoomHarness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-rooms-'));
  const clock = { now: Date.UTC(2026, 10, 22, 12, 0, 0) };
  const clients: TestClient[] = [];
  let parts = await wire(dataDir, clock, options);

  const harness: RoomHarness = {
    get store() {
      return parts.store;
    },
    get broker() {
      return parts.broker;
    },
    get gateway() {
      return parts.gateway;
    },
    get rooms() {
      return parts.rooms;
    },
    get url() {
      return parts.url;
    },
    clock,
    async agent(agentId, protocolVersion = 5) {
      const client = await connectClient(parts.url, { username: agentId, password: PASSWORD, protocolVersion });
      clients.push(client);
      return client;
    },
    async watcher() {
      // Agents may not read everything; the harness's watcher is an agent whose subscriptions
      // the test grants through the broker's own hooks: it reads via onMessage instead.
      const received: { topic: string; payload: string }[] = [];
      const waiters: { topic: string; marker: string; resolve: (r: typeof received) => void }[] = [];
      parts.broker.onMessage('#', (m) => {
        const entry = { topic: m.topic, payload: new TextDecoder().decode(m.payload) };
        received.push(entry);
        for (const w of [...waiters])
          if (w.topic === m.topic && entry.payload.includes(w.marker)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve([...received]);
          }
      });
      return {
        client: undefined as never,
        received,
        until: (topic: string, marker: string) =>
          new Promise((resolve) => {
            const i = received.findIndex((r) => r.topic === topic && r.payload.includes(marker));
            if (i >= 0) resolve(received.slice(0, i + 1));
            else waiters.push({ topic, marker, resolve });
          }),
      };
    },
    async facilitatorPublish(topic, envelope) {
      const payload = new TextEncoder().encode(JSON.stringify(envelope));
      await parts.recorder.record({ topic, payload, publisher: null, receivedAt: clock.now });
      await parts.broker.publish(topic, payload);
    },
    async restart() {
      await Promise.all(clients.splice(0).map((c) => c.client.endAsync(true)));
      await parts.gateway.stop();
      await parts.broker.close();
      await parts.store.close();
      parts = await wire(dataDir, clock, options);
    },
    async close() {
      await Promise.all(clients.splice(0).map((c) => c.client.endAsync(true)));
      await parts.gateway.stop();
      await parts.broker.close();
      await parts.store.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

async function wire(dataDir: string, clock: { now: number }, { sendLimits, publishQuotas }: RoomHarnessOptions) {
  const store = new SqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  const rooms = new RoomRegistry(store);
  const recorder = new HistoryRecorder(store, rooms);
  const candidates = lateGateway();
  const broker = await EmbeddedBroker.create({
    verifyAgent: async (_agentId, password) => password === PASSWORD,
    beforeRoute: async (m) => (isCandidate(m) ? candidates.admitCandidate(m) : void (await recorder.record(m))),
    now: () => clock.now,
    ...(sendLimits ? { sendLimits } : {}),
    ...(publishQuotas ? { publishQuotas: new PublishQuotas(publishQuotas, { now: () => clock.now }) } : {}),
  });
  const address = await broker.listenTcp('127.0.0.1', 0);
  const gateway = new Gateway({
    broker,
    store,
    history: recorder,
    now: () => clock.now,
    newId: () => `msg_${randomUUID()}`,
  });
  candidates.attach(gateway);
  gateway.start(60_000);
  await gateway.recover();
  return { store, rooms, recorder, broker, gateway, url: `mqtt://127.0.0.1:${address.port}` };
}
