// The room harness over a private Mosquitto: the same SQLite store, history
// recorder and gateway as room-harness.ts, with the ExternalBroker port instead of aedes, agents
// provisioned through dynamic security, and history written when a message arrives (an external
// broker has no hook before routing). `brokerRoomHarness` gives either kind behind one shape, so
// one suite runs against both.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gateway } from '../gateway/gateway';
import type { BrokerPort } from '../mqtt/broker-port';
import { ExternalBroker, uniqueClientId } from '../mqtt/external-broker';
import { agentCandidateTopic } from '../mqtt/dynsec-acls';
import { DynsecAdmin } from '../mqtt/mosquitto-dynsec';
import { PublishQuotas, type PublishQuotaLimits } from '../mqtt/publish-quotas';
import { HistoryRecorder, recordOnArrival } from '../rooms/history-recorder';
import { lateGateway } from '../gateway/late-gateway';
import { RoomRegistry } from '../rooms/room-registry';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import type { Store } from '../store/store';
import { connectClient, type Received, type TestClient } from './mqtt-clients';
import type { PrivateMosquitto } from './private-mosquitto';
import { PASSWORD, startRoomHarness } from './room-harness';

export interface Watcher {
  readonly received: Received[];
  until(topic: string, marker: string): Promise<Received[]>;
}

/** What a broker-agnostic room test needs. */
export interface BrokerRoomHarness {
  readonly kind: 'aedes' | 'mosquitto';
  readonly store: Store;
  readonly broker: BrokerPort;
  readonly gateway: Gateway;
  readonly rooms: RoomRegistry;
  clock: { now: number };
  /** Where this agent publishes candidates on this kind of broker. */
  candidateTopic(roomId: string, agentId: string): string;
  agent(agentId: string, protocolVersion?: 4 | 5): Promise<TestClient>;
  /** Sees everything the server's broker port hands to its handlers, from now on. */
  watcher(): Promise<Watcher>;
  facilitatorPublish(topic: string, envelope: unknown): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

const SERVER_USERNAME = 'switchboard-server';
const SERVER_PASSWORD = 'server-test-password';

/** Reads what a port hands its handlers, on `rooms/#` and the console's `switchboard/#`. */
function portWatcher(broker: BrokerPort): Watcher {
  const received: Received[] = [];
  const waiters: { topic: string; marker: string; resolve: (r: Received[]) => void }[] = [];
  const take = (m: { topic: string; payload: Uint8Array }) => {
    const entry = { topic: m.topic, payload: new TextDecoder().decode(m.payload) };
    received.push(entry);
    for (const w of [...waiters]) {
      if (w.topic === entry.topic && entry.payload.includes(w.marker)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve([...received]);
      }
    }
  };
  broker.onMessage('rooms/#', take);
  broker.onMessage('switchboard/#', take);
  return {
    received,
    until: (topic, marker) =>
      new Promise((resolve) => {
        const i = received.findIndex((r) => r.topic === topic && r.payload.includes(marker));
        if (i >= 0) resolve(received.slice(0, i + 1));
        else waiters.push({ topic, marker, resolve });
      }),
  };
}

export async function startExternalRoomHarness(
  mosquitto: PrivateMosquitto,
  options: { dataDir?: string; publishQuotas?: PublishQuotaLimits } = {},
): Promise<BrokerRoomHarness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-rooms-ext-'));
  const clock = { now: Date.UTC(2026, 10, 22, 12, 0, 0) };
  const admin = await DynsecAdmin.connect({ url: mosquitto.url, ...mosquitto.admin });
  // Unbound here, so that harnesses on one broker do not take each other's sessions.
  await admin.setupServer(SERVER_USERNAME, SERVER_PASSWORD, null);
  const provisioned = new Set<string>();
  const clients: TestClient[] = [];
  // One id for the life of the harness: a restart finds its session (and what queued meanwhile).
  const clientId = uniqueClientId('switchboard-test');
  let parts = await wire(mosquitto, dataDir, clock, clientId, options.publishQuotas);

  const harness: BrokerRoomHarness = {
    kind: 'mosquitto',
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
    clock,
    candidateTopic: agentCandidateTopic,
    async agent(agentId, protocolVersion = 5) {
      if (!provisioned.has(agentId)) {
        await admin.addAgent(agentId, PASSWORD);
        provisioned.add(agentId);
      }
      const client = await connectClient(mosquitto.url, {
        username: agentId,
        password: PASSWORD,
        clientId: agentId,
        protocolVersion,
      });
      clients.push(client);
      return client;
    },
    async watcher() {
      return portWatcher(parts.broker);
    },
    async facilitatorPublish(topic, envelope) {
      const payload = new TextEncoder().encode(JSON.stringify(envelope));
      await parts.recorder.record({ topic, payload, publisher: null, receivedAt: clock.now });
      await parts.broker.publish(topic, payload);
    },
    async restart() {
      await Promise.all(clients.splice(0).map((c) => c.client.endAsync(true)));
      await stop(parts);
      parts = await wire(mosquitto, dataDir, clock, clientId, options.publishQuotas);
    },
    async close() {
      await Promise.all(clients.splice(0).map((c) => c.client.endAsync(true)));
      await stop(parts);
      await admin.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

async function stop(parts: Awaited<ReturnType<typeof wire>>): Promise<void> {
  await parts.gateway.stop();
  await parts.broker.close();
  await parts.store.close();
}

async function wire(
  mosquitto: PrivateMosquitto,
  dataDir: string,
  clock: { now: number },
  clientId: string,
  publishQuotas: PublishQuotaLimits | undefined,
) {
  const store = new SqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  const rooms = new RoomRegistry(store);
  const recorder = new HistoryRecorder(store, rooms);
  const candidates = lateGateway();
  const broker = await ExternalBroker.connect({
    url: mosquitto.url,
    username: SERVER_USERNAME,
    password: SERVER_PASSWORD,
    clientId,
    sessionExpirySeconds: 300,
    now: () => clock.now,
    // Room messages are stored on arrival, before any handler sees them, and candidates with
    // their decision, as the server stores them.
    ...recordOnArrival(
      recorder,
      candidates.admitCandidate,
      publishQuotas && new PublishQuotas(publishQuotas, { now: () => clock.now }),
    ),
  });
  const gateway = new Gateway({
    broker,
    store,
    history: recorder,
    now: () => clock.now,
    newId: () => `msg_${randomUUID()}`,
    confirmHandOver: true,
  });
  candidates.attach(gateway);
  gateway.start(60_000);
  // As the server starts it (runtime/start-switchboard.ts): what was stored but not decided is decided now.
  await gateway.recover();
  return { store, rooms, recorder, broker, gateway };
}

/** The embedded harness (room-harness.ts) in the same shape. */
export async function startEmbeddedRoomHarness(): Promise<BrokerRoomHarness> {
  const h = await startRoomHarness();
  return {
    kind: 'aedes',
    get store() {
      return h.store;
    },
    get broker() {
      return h.broker;
    },
    get gateway() {
      return h.gateway;
    },
    get rooms() {
      return h.rooms;
    },
    clock: h.clock,
    candidateTopic: (roomId) => `rooms/${roomId}/public_candidates`,
    agent: (agentId, v) => h.agent(agentId, v),
    watcher: () => h.watcher(),
    facilitatorPublish: (topic, envelope) => h.facilitatorPublish(topic, envelope),
    restart: () => h.restart(),
    close: () => h.close(),
  };
}
