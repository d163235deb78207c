// The AOR gateway (§7) against pass-through baselines through the same broker, in one run: real
// MQTT 5 clients over TCP loopback, the embedded broker (aedes) with its §8 ACL, a real SQLite
// store in a temporary directory (WAL, synchronous = NORMAL, the checkpoint worker, as the server
// opens it), the history recorder as `beforeRoute` and the gateway, wired as
// server/test-support/room-harness.ts wires them (with the real clock).
//
// What is compared: the same envelope bytes (an AOR `result`, ~330 bytes), the same publisher
// (agent.bench) and listener (agent.listener) clients (in this process, or with
// BENCH_CLIENTS=process in their own: bench/gateway-clients.ts), the same broker. Every publish passes the
// real ACL and is recorded in history before it is routed.
//   direct     rooms/bench/agents/agent.bench/work → broker (ACL, history write) → listener,
//              subscribed to exactly that topic. One hop, one history write.
//   relay      rooms/bench/agents/agent.bench/heartbeat → broker (ACL, history write) → an
//              in-process handler that records the copy on rooms/bench/public (history write)
//              and publishes it there, as the gateway's #publish does → listener on
//              rooms/+/public. Two hops, two history writes, no §7 decision.
//   moderated  rooms/bench/public_candidates → broker (ACL, history write) → gateway (envelope
//              check, grant read, room read, atomic spend, history write of the public copy)
//              → rooms/bench/public → listener on rooms/+/public.
//   rejected   the same candidate for a task without a grant → gateway → reject envelope
//              (history write) on rooms/bench/control → listener on rooms/+/control.
// The §8 ACL lets no agent read another agent's work topic; for the direct path only, this bench
// widens the broker's SUBSCRIBE authorization for the one listener and that one topic (checked
// once, at SUBSCRIBE; nothing changes per message).
//
// Run: npm run bench:gateway (tsx bench/gateway.ts), about 100 s. Env: BENCH_SECONDS per latency
// cell (3), BENCH_TP_SECONDS per throughput round (2), BENCH_WINDOW messages in flight in the
// throughput rounds (100), BENCH_DIR for the database files,
// BENCH_CLIENT_NAGLE=1 to leave Nagle on in the two clients, BENCH_CLIENTS=process for the agents
// in their own process. Results: docs/benchmarks.md.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { Gateway, isCandidate } from '../server/gateway/gateway';
import { EmbeddedBroker } from '../server/mqtt/embedded-broker';
import { HistoryRecorder } from '../server/rooms/history-recorder';
import { RoomRegistry } from '../server/rooms/room-registry';
import { SQLITE_FILE_NAME, SqliteStore } from '../server/store/sqlite/sqlite-store';
import { startBenchClients } from './gateway-clients';
import {
  CONTROL,
  f0,
  f2,
  grantEnvelopes,
  GRANTS,
  LISTENER,
  load,
  probeCommit,
  PUBLIC,
  PUBLISHER,
  ROOM,
  WORK,
  type BenchPaths,
} from './gateway-measure';
import { printBenchResult } from './bench-result';

type Path = 'direct' | 'relay' | 'moderated' | 'rejected';

const PASSWORD = 'bench-password';
const PATHS: BenchPaths<Path> = {
  all: ['direct', 'relay', 'moderated', 'rejected'],
  topic: {
    direct: WORK,
    relay: `rooms/${ROOM}/agents/${PUBLISHER}/heartbeat`,
    moderated: `rooms/${ROOM}/public_candidates`,
    rejected: `rooms/${ROOM}/public_candidates`,
  },
  deliveredOn: { direct: WORK, relay: PUBLIC, moderated: PUBLIC, rejected: CONTROL },
  label: { direct: 'direct', relay: 'relay', moderated: 'candidate → public', rejected: 'candidate → reject' },
  approved: 'moderated',
};
const TOPIC = PATHS.topic;

// The broker's aedes instance, to widen SUBSCRIBE for the direct path's listener (see above).
let aedes: Aedes | undefined;
const createBroker = Aedes.createBroker.bind(Aedes);
Aedes.createBroker = async (options) => (aedes = await createBroker(options));

const dataDir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'switchboard-bench-gateway-'));
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true })); // also after a failure
// As the server opens it (open-store.ts); BENCH_WAL_WORKER=0 keeps checkpoints on the event loop.
const store = new SqliteStore({
  file: join(dataDir, SQLITE_FILE_NAME),
  checkpointInWorker: process.env.BENCH_WAL_WORKER !== '0',
});
const rooms = new RoomRegistry(store);
const recorder = new HistoryRecorder(store, rooms);
const late: { gateway?: Gateway } = {};
const broker = await EmbeddedBroker.create({
  verifyAgent: async (_agentId, password) => password === PASSWORD,
  beforeRoute: async (m) => (isCandidate(m) ? late.gateway!.admitCandidate(m) : void (await recorder.record(m))),
});
const { port } = await broker.listenTcp('127.0.0.1', 0);
const gateway = new Gateway({ broker, store, history: recorder, now: Date.now, newId: () => `msg_${randomUUID()}` });
late.gateway = gateway;
gateway.start(60_000);
await gateway.recover(); // nothing to recover in a fresh database; admitted candidates wait for it
await rooms.create({ id: ROOM, name: 'Bench', moderation: 'auto' });

const authorizeSubscribe = aedes!.authorizeSubscribe;
aedes!.authorizeSubscribe = (client, subscription, callback) =>
  client.id === LISTENER && subscription.topic === TOPIC.direct
    ? callback(null, subscription)
    : authorizeSubscribe(client, subscription, callback);

// The relay: republish what arrives, recording the copy first, exactly as the gateway publishes.
broker.onMessage(TOPIC.relay, (m) => {
  void recorder
    .record({ topic: PUBLIC, payload: m.payload, publisher: null, receivedAt: Date.now() })
    .then(() => broker.publish(PUBLIC, m.payload, 1))
    .catch((error: unknown) => console.error('relay failed:', error));
});

// Grants for tasks t0…t39, through the facilitator's path (history, then control → gateway).
for (const payload of grantEnvelopes()) {
  await recorder.record({ topic: CONTROL, payload, publisher: null, receivedAt: Date.now() });
  await broker.publish(CONTROL, payload);
}
for (let i = 0; !(await store.rooms.getGrant(ROOM, PUBLISHER, `t${GRANTS - 1}`)); i++) {
  if (i > 5_000) throw new Error('the gateway did not store the grants');
  await new Promise((resolve) => setTimeout(resolve, 1));
}

// The agents: here, or in a process of their own with BENCH_CLIENTS=process (bench/gateway-clients.ts).
const measure = await startBenchClients({
  url: `mqtt://127.0.0.1:${port}`,
  publisher: { username: PUBLISHER, password: PASSWORD, clientId: PUBLISHER },
  listener: { username: LISTENER, password: PASSWORD, clientId: LISTENER },
  paths: PATHS,
});

// ---------------------------------------------------------------------------------------------

const started = performance.now();

console.log(`Gateway bench: node ${process.version}, load average ${load()}, database in ${dataDir}`);

// What one durable commit costs on this disk: every path pays it per history write, the
// moderated path per spend as well.
await probeCommit(dataDir);

await measure.warmUp();

if (await measure.profileIfAsked()) {
  await measure.close();
  await gateway.stop();
  await broker.close();
  await store.close();
  process.exit(0);
}

// BENCH_LATENCY_ONLY=1 skips the throughput rounds.
const latencyOnly = process.env.BENCH_LATENCY_ONLY === '1';
const tp = await measure.throughputTable(
  ['direct', 'relay', 'moderated'],
  [
    ['moderated', 'direct'],
    ['moderated', 'relay'],
  ],
  latencyOnly,
);
const results = await measure.latencyTable(['direct', 'relay', 'moderated', 'rejected']);

// Every approved candidate spent exactly one message of a grant.
const spent = (await store.rooms.listGrants({ roomId: ROOM })).reduce((sum, g) => sum + g.spent, 0);
const cell = (path: Path) => results.find((x) => x.qos === 1 && x.rate === 1_000 && x.path === path)!.r;
console.log('\nAgainst the aims:');
if (!latencyOnly)
  console.log(
    `  throughput moderated/direct: QoS 0 ${f2(tp[0].moderated / tp[0].direct)}, QoS 1 ${f2(tp[1].moderated / tp[1].direct)} (aim ≥ 0.90); moderated/relay: QoS 0 ${f2(tp[0].moderated / tp[0].relay)}, QoS 1 ${f2(tp[1].moderated / tp[1].relay)}`,
  );
console.log(
  `  p99 at 1,000 msg/s QoS 1: ${f2(cell('moderated').p99)} ms (aim ≤ 5 ms), ${f2(cell('moderated').p99 / cell('direct').p99)}× the direct path's ${f2(cell('direct').p99)} ms (aim ≤ 2×)`,
);
const { approvedSent } = await measure.counts();
console.log(
  `  grant budget spent: ${f0(spent)} for ${f0(approvedSent)} approved candidates sent${spent === approvedSent ? '' : '  ! MISMATCH'}`,
);
console.log(
  `\nwhole run ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${load()} (2 cores: above ~1 means other work shared the machine)`,
);
printBenchResult('gateway', [
  ...(latencyOnly
    ? []
    : ([1, 0] as const).map((qos) => ({
        metric: `moderated throughput, QoS ${qos} (aim ≥ 0.90)`,
        value: tp[qos].moderated,
        unit: 'msg/s',
        baseline: 'direct (broker pass-through)',
        baselineValue: tp[qos].direct,
      }))),
  {
    metric: 'moderated p99 at 1,000 msg/s QoS 1 (aim ≤ 5 ms, ≤ 2×)',
    value: cell('moderated').p99,
    unit: 'ms',
    baseline: 'direct p99',
    baselineValue: cell('direct').p99,
  },
]);

await measure.close();
await gateway.stop();
await broker.close();
await store.close();
