// The AOR gateway (§7) against broker pass-through with an EXTERNAL broker (its aim in
// docs/benchmarks.md: "external broker: ≥ 40 % and p99 ≤ 5 ms"), in one run: a private Mosquitto 2 with the
// dynamic-security plugin (server/test-support/private-mosquitto.ts, persistence off), and the
// Switchboard side in this process wired as server/runtime/external-adapter.ts wires it:
// the server's broker client and role provisioned as `npm run cli -- broker setup` does
// (DynsecAdmin.setupServer), agents as `cli agent add` does (DynsecAdmin.addAgent), the SQLite
// store opened by openStore, `recordOnArrival` as `beforeDispatch` (a room message recorded, a
// candidate recorded with its decision, before the PUBACK), the same share group, and the Gateway.
// Measuring, clients, envelope and output are bench/gateway.ts's (bench/gateway-measure.ts).
//
// Paths, the same ~330-byte AOR `result` from the same publisher (agent.bench) to the same
// listener (agent.listener), both with their §8 roles on the broker:
//   direct     rooms/bench/agents/agent.bench/work → Mosquitto → listener subscribed to exactly
//              that topic. Pure broker pass-through, the baseline. (The server receives and
//              records the same message alongside, as it records every room message; the listener
//              does not wait for that.)
//   moderated  rooms/bench/public_candidates/agent.bench (the agent's own candidate subtopic, the
//              README's external-broker contract) → Mosquitto → server (one transaction: the
//              candidate's row, envelope check, grant and room reads, spend and the public copy's
//              row; then the PUBACK, and the publish on rooms/bench/public) → Mosquitto → listener.
//   rejected   the same candidate for a task without a grant → gateway → reject envelope on
//              rooms/bench/control → listener.
// The §8 ACL lets no agent read another agent's work topic; for the direct path only, the bench
// gives the listener one more dynamic-security role that reads that one topic (provisioned once,
// before the run; nothing changes per message).
//
// Run: npm run bench:gateway-external (tsx bench/gateway-external.ts), about 80 s; needs mosquitto
// 2 and its dynamic-security plugin (MOSQUITTO_BIN, MOSQUITTO_DYNSEC_PLUGIN). Env: BENCH_SECONDS
// per latency cell (3), BENCH_TP_SECONDS per throughput round (2), BENCH_WINDOW messages in
// flight in the throughput rounds (100), BENCH_DIR for the database
// files, BENCH_CLIENT_NAGLE=1 to leave Nagle on in the two bench clients, BENCH_MOSQUITTO_NAGLE=1
// to leave Mosquitto's Nagle on (a stock broker's default), BENCH_CLIENTS=process for the agents
// in their own process, BENCH_LATENCY_ONLY=1, BENCH_PROFILE=<path>, BENCH_DEBUG=1 for Mosquitto's
// log. Results: docs/benchmarks.md.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gateway } from '../server/gateway/gateway';
import { lateGateway } from '../server/gateway/late-gateway';
import { ExternalBroker } from '../server/mqtt/external-broker';
import {
  agentCandidateTopic,
  DEFAULT_SERVER_CLIENT_ID,
  DEFAULT_SERVER_USERNAME,
  GATEWAY_SHARE_GROUP,
} from '../server/mqtt/dynsec-acls';
import { DynsecAdmin } from '../server/mqtt/mosquitto-dynsec';
import { HistoryRecorder, recordOnArrival } from '../server/rooms/history-recorder';
import { RoomRegistry } from '../server/rooms/room-registry';
import { openStore } from '../server/store/open-store';
import { startPrivateMosquitto } from '../server/test-support/private-mosquitto';
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

type Path = 'direct' | 'moderated' | 'rejected';

const CANDIDATES = agentCandidateTopic(ROOM, PUBLISHER);
const PATHS: BenchPaths<Path> = {
  all: ['direct', 'moderated', 'rejected'],
  topic: { direct: WORK, moderated: CANDIDATES, rejected: CANDIDATES },
  deliveredOn: { direct: WORK, moderated: PUBLIC, rejected: CONTROL },
  label: { direct: 'direct', moderated: 'candidate → public', rejected: 'candidate → reject' },
  approved: 'moderated',
};
const HEARTBEAT = `rooms/${ROOM}/agents/${PUBLISHER}/heartbeat`;
/** The listener's extra role: read the publisher's work topic (the direct path), nothing else. */
const DIRECT_READER_ROLE = 'bench-direct-reader';

// Mosquitto as docs/deploy.md sets it up: `set_tcp_nodelay true`. BENCH_MOSQUITTO_NAGLE=1 leaves
// Nagle on, as a stock broker does (every hop to the server then waits for delayed ACKs).
const mosquittoNoDelay = process.env.BENCH_MOSQUITTO_NAGLE !== '1';
const mosquitto = await startPrivateMosquitto({ tcpNoDelay: mosquittoNoDelay });
const dataDir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'switchboard-bench-gateway-external-'));
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true })); // also after a failure
const cleanUp: (() => Promise<unknown>)[] = [() => mosquitto.stop()];
const stopAll = async () => {
  for (const stop of cleanUp.reverse())
    await stop().catch((error: unknown) => console.error('clean-up failed:', error));
};

try {
  // Provisioning, as the CLI does it: `broker setup` for the server, `agent add` for each agent.
  const admin = await DynsecAdmin.connect({
    url: mosquitto.url,
    username: mosquitto.admin.username,
    password: mosquitto.admin.password,
    reservedUsernames: [DEFAULT_SERVER_USERNAME],
  });
  cleanUp.push(() => admin.close());
  const serverPassword = randomBytes(18).toString('base64url');
  await admin.setupServer(DEFAULT_SERVER_USERNAME, serverPassword, DEFAULT_SERVER_CLIENT_ID);
  const passwords = {
    [PUBLISHER]: randomBytes(18).toString('base64url'),
    [LISTENER]: randomBytes(18).toString('base64url'),
  };
  for (const [agentId, password] of Object.entries(passwords)) await admin.addAgent(agentId, password);
  await admin.ensureRole(DIRECT_READER_ROLE, [
    { acltype: 'subscribePattern', topic: WORK, allow: true, priority: 10 },
    { acltype: 'publishClientReceive', topic: WORK, allow: true, priority: 10 },
  ]);
  // Checked before the agent role (priority 0), whose catch-all denies would match first.
  const [added] = await admin.send([
    { command: 'addClientRole', username: LISTENER, rolename: DIRECT_READER_ROLE, priority: 10 },
  ]);
  if (added?.error) throw new Error(`addClientRole failed: ${added.error}`);

  // The Switchboard side, as startWithExternalBroker wires it (no HTTP, consoles or presence).
  const store = await openStore({ dataDir, databaseUrl: undefined });
  cleanUp.push(() => store.close());
  const rooms = new RoomRegistry(store);
  const history = new HistoryRecorder(store, rooms);
  const candidates = lateGateway();
  const broker = await ExternalBroker.connect({
    url: mosquitto.url,
    username: DEFAULT_SERVER_USERNAME,
    password: serverPassword,
    clientId: DEFAULT_SERVER_CLIENT_ID,
    now: Date.now,
    shareGroup: GATEWAY_SHARE_GROUP,
    ...recordOnArrival(history, candidates.admitCandidate),
  });
  cleanUp.push(() => broker.close());
  const gateway = new Gateway({
    broker,
    store,
    history,
    now: Date.now,
    newId: () => `msg_${randomUUID()}`,
    confirmHandOver: true,
  });
  candidates.attach(gateway);
  gateway.start(false);
  await gateway.recover();
  cleanUp.push(() => gateway.stop());
  // The sweep of expired grants, as the (only, so leading) instance runs it.
  cleanUp.push(async () => stopSweep());
  const stopSweep = gateway.sweepEvery();
  await rooms.create({ id: ROOM, name: 'Bench', moderation: 'auto' });

  // Grants for tasks t0…t39, as a facilitator's console publishes them (history, then control).
  for (const payload of grantEnvelopes()) {
    await history.record({ topic: CONTROL, payload, publisher: null, receivedAt: Date.now() });
    await broker.publish(CONTROL, payload, 1);
  }
  for (let i = 0; !(await store.rooms.getGrant(ROOM, PUBLISHER, `t${GRANTS - 1}`)); i++) {
    if (i > 5_000) throw new Error('the gateway did not store the grants');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }

  // The server records every room message on arrival, on its one connection (each PUBACK waits
  // for its row), so a burst of pass-through traffic can leave it a backlog that would delay the
  // next cell's candidates. Before each cell, wait until the server has handled a marker
  // the publisher sends after everything else (a heartbeat, on the same connection, in order).
  let recordedDirect = 0;
  broker.onMessage(WORK, () => void recordedDirect++, { shared: true });
  // Only a marker sent by the current wait counts: a late one from the previous wait does not
  // show that this cell's backlog is done.
  let markers = 0;
  let firstOfThisWait = 0;
  let markerSeen = false;
  broker.onMessage(
    HEARTBEAT,
    (m) => {
      const n = /"settle\.(\d+)"/.exec(new TextDecoder().decode(m.payload))?.[1];
      if (n !== undefined && Number(n) >= firstOfThisWait) markerSeen = true;
    },
    { shared: true },
  );
  let settleMs = 0;
  const settle = async () => {
    markerSeen = false;
    firstOfThisWait = markers;
    const t0 = performance.now();
    while (!markerSeen) {
      if (performance.now() - t0 > 120_000) throw new Error('the server did not catch up within 2 minutes');
      await measure.publish(
        HEARTBEAT,
        `{"id":"settle.${markers++}","type":"heartbeat","room_id":"${ROOM}","from":{"kind":"agent","id":"${PUBLISHER}"},"ts":${Math.floor(Date.now() / 1000)},"payload":{}}`,
        1,
      );
      for (let i = 0; i < 100 && !markerSeen; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    settleMs += performance.now() - t0;
  };
  // The agents (here, or in their own process with BENCH_CLIENTS=process); credentials are bound
  // to client id = agentId (DynsecAdmin.addAgent).
  const agent = (agentId: keyof typeof passwords) => ({
    username: agentId,
    password: passwords[agentId],
    clientId: agentId,
  });
  const measure = await startBenchClients(
    { url: mosquitto.url, publisher: agent(PUBLISHER), listener: agent(LISTENER), paths: PATHS },
    settle,
  );
  cleanUp.push(() => measure.close());

  // -------------------------------------------------------------------------------------------

  const started = performance.now();
  console.log(
    `Gateway bench, external broker: node ${process.version}, ${mosquitto.log().match(/mosquitto version [\d.]+/)?.[0] ?? 'mosquitto'}${mosquittoNoDelay ? ' (set_tcp_nodelay true)' : ''}, load average ${load()}, database in ${dataDir}`,
  );
  await probeCommit(dataDir);
  await measure.warmUp();

  if (!(await measure.profileIfAsked())) {
    // BENCH_LATENCY_ONLY=1 skips the throughput rounds.
    const latencyOnly = process.env.BENCH_LATENCY_ONLY === '1';
    const tp = await measure.throughputTable(['direct', 'moderated'], [['moderated', 'direct']], latencyOnly);
    const results = await measure.latencyTable(['direct', 'moderated', 'rejected']);
    const counts = await measure.counts();

    // Every approved candidate spent exactly one message of a grant.
    const spent = (await store.rooms.listGrants({ roomId: ROOM })).reduce((sum, g) => sum + g.spent, 0);
    const cell = (path: Path) =>
      results.find(
        (x: { qos: number; rate: number; path: Path }) => x.qos === 1 && x.rate === 1_000 && x.path === path,
      )!.r;
    const ratio = { 0: tp[0].moderated / tp[0].direct, 1: tp[1].moderated / tp[1].direct };
    const p99 = cell('moderated').p99;
    const met = ratio[0] >= 0.4 && ratio[1] >= 0.4 && p99 <= 5;
    console.log('\nAgainst the aims (docs/benchmarks.md):');
    console.log(
      `  external broker: ≥ 0.40 and p99 ≤ 5 ms: moderated/direct QoS 0 ${f2(ratio[0])}, QoS 1 ${f2(ratio[1])}; p99 at 1,000 msg/s QoS 1 ${f2(p99)} ms` +
        ` (${f2(p99 / cell('direct').p99)}× the direct path's ${f2(cell('direct').p99)} ms): ${met ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  direct messages the server recorded: ${f0(recordedDirect)} of ${f0(counts.sent.direct)} sent (the rest never reached it: Mosquitto drops what exceeds a client's queue)`,
    );
    console.log(`  waiting for the server to catch up before the cells: ${(settleMs / 1000).toFixed(1)} s in all`);
    console.log(
      `  grant budget spent: ${f0(spent)} for ${f0(counts.approvedSent)} approved candidates sent${spent === counts.approvedSent ? '' : '  ! MISMATCH'}`,
    );
    console.log(
      `\nwhole run ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${load()} (2 cores: above ~1 means other work shared the machine)`,
    );
    printBenchResult('gateway-external', [
      ...(latencyOnly
        ? []
        : ([1, 0] as const).map((qos) => ({
            metric: `moderated throughput, QoS ${qos}, Mosquitto (aim ≥ 0.40)`,
            value: tp[qos].moderated,
            unit: 'msg/s',
            baseline: 'direct (Mosquitto pass-through)',
            baselineValue: tp[qos].direct,
          }))),
      {
        metric: 'moderated p99 at 1,000 msg/s QoS 1, Mosquitto (aim ≤ 5 ms)',
        value: p99,
        unit: 'ms',
        baseline: 'direct p99',
        baselineValue: cell('direct').p99,
      },
    ]);
  }
} finally {
  if (process.env.BENCH_DEBUG)
    console.log(
      mosquitto
        .log()
        .split('\n')
        .filter((l) => !/New client|New connection|disconnected/.test(l))
        .slice(-40)
        .join('\n'),
    );
  await stopAll();
}
