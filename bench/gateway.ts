// The AOR gateway (§7) against pass-through baselines through the same broker, in one process and
// one run: real MQTT 5 clients over TCP loopback, the embedded broker (aedes) with its §8 ACL, a
// real SQLite store in a temporary directory (WAL, synchronous = FULL, as the server runs it),
// the history recorder as `beforeRoute` and the gateway, wired as
// server/test-support/room-harness.ts wires them (with the real clock).
//
// What is compared: the same envelope bytes (an AOR `result`, ~330 bytes), the same publisher
// (agent.bench) and listener (agent.listener) clients, the same broker. Every publish passes the
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
// cell (3), BENCH_TP_SECONDS per throughput round (2), BENCH_DIR for the database files,
// BENCH_CLIENT_NAGLE=1 to leave Nagle on in the two clients. Results: docs/benchmarks.md.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { Gateway, isCandidate } from '../server/gateway/gateway';
import { EmbeddedBroker } from '../server/mqtt/embedded-broker';
import { HistoryRecorder } from '../server/rooms/history-recorder';
import { RoomRegistry } from '../server/rooms/room-registry';
import { SQLITE_FILE_NAME, SqliteStore } from '../server/store/sqlite/sqlite-store';

type Qos = 0 | 1;
type Path = 'direct' | 'relay' | 'moderated' | 'rejected';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const TP_SECONDS = Number(process.env.BENCH_TP_SECONDS ?? 2);
const WINDOW = 100; // at most this many messages in flight end to end in the throughput runs
const PER_TASK = 9_000; // a grant allows at most 10,000 (schema): rotate tasks before one runs out
const GRANTS = 40;
const ROOM = 'bench';
const PUBLISHER = 'agent.bench';
const LISTENER = 'agent.listener';
const PASSWORD = 'bench-password';
const PUBLIC = `rooms/${ROOM}/public`;
const TOPIC: Record<Path, string> = {
  direct: `rooms/${ROOM}/agents/${PUBLISHER}/work`,
  relay: `rooms/${ROOM}/agents/${PUBLISHER}/heartbeat`,
  moderated: `rooms/${ROOM}/public_candidates`,
  rejected: `rooms/${ROOM}/public_candidates`,
};
const DELIVERED_ON: Record<Path, string> = { direct: TOPIC.direct, relay: PUBLIC, moderated: PUBLIC, rejected: `rooms/${ROOM}/control` };
const LABEL: Record<Path, string> = { direct: 'direct', relay: 'relay', moderated: 'candidate → public', rejected: 'candidate → reject' };
const PAD = 'x'.repeat(160); // envelopes of about 330 bytes

// The broker's aedes instance, to widen SUBSCRIBE for the direct path's listener (see above).
let aedes: Aedes | undefined;
const createBroker = Aedes.createBroker.bind(Aedes);
Aedes.createBroker = async (options) => (aedes = await createBroker(options));

const dataDir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'switchboard-bench-gateway-'));
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true })); // also after a failure
// As the server opens it (open-store.ts); BENCH_WAL_WORKER=0 keeps checkpoints on the event loop.
const store = new SqliteStore({ file: join(dataDir, SQLITE_FILE_NAME), checkpointInWorker: process.env.BENCH_WAL_WORKER !== '0' });
const rooms = new RoomRegistry(store);
const recorder = new HistoryRecorder(store, rooms);
// BENCH_GATEWAY=routed runs the gateway as a subscriber that decides after the broker routed the
// candidate (as with an external broker) instead of before routing, as the server runs it.
const admitsBeforeRoute = process.env.BENCH_GATEWAY !== 'routed';
const late: { gateway?: Gateway } = {};
const broker = await EmbeddedBroker.create({
  verifyAgent: async (_agentId, password) => password === PASSWORD,
  beforeRoute: async (m) => (admitsBeforeRoute && isCandidate(m) ? late.gateway!.admitCandidate(m) : void (await recorder.record(m))),
});
const { port } = await broker.listenTcp('127.0.0.1', 0);
const gateway = new Gateway({ broker, store, history: recorder, now: Date.now, newId: () => `msg_${randomUUID()}`, admitsBeforeRoute });
late.gateway = gateway;
gateway.start(60_000);
await rooms.create({ id: ROOM, name: 'Bench', moderation: 'auto' });

const authorizeSubscribe = aedes!.authorizeSubscribe;
aedes!.authorizeSubscribe = (client, subscription, callback) =>
  client.id === 'bench-listener' && subscription.topic === TOPIC.direct ? callback(null, subscription) : authorizeSubscribe(client, subscription, callback);

// The relay: republish what arrives, recording the copy first, exactly as the gateway publishes.
broker.onMessage(TOPIC.relay, (m) => {
  void recorder
    .record({ topic: PUBLIC, payload: m.payload, publisher: null, receivedAt: Date.now() })
    .then(() => broker.publish(PUBLIC, m.payload, 1))
    .catch((error: unknown) => console.error('relay failed:', error));
});

// Grants for tasks t0…t39, through the facilitator's path (history, then control → gateway).
const nowS = () => Math.floor(Date.now() / 1000);
for (let k = 0; k < GRANTS; k++) {
  const envelope = {
    id: `grant_${k}`, type: 'mic_grant', room_id: ROOM, from: { kind: 'user', id: 'did:key:z6MkBenchFacilitator' }, ts: nowS(),
    payload: { task_id: `t${k}`, agent_id: PUBLISHER, max_messages: 10_000, allowed_message_types: ['progress'], expires_at: nowS() + 3600 },
  };
  const payload = new TextEncoder().encode(JSON.stringify(envelope));
  await recorder.record({ topic: `rooms/${ROOM}/control`, payload, publisher: null, receivedAt: Date.now() });
  await broker.publish(`rooms/${ROOM}/control`, payload);
}
for (let i = 0; !(await store.getGrant(ROOM, PUBLISHER, `t${GRANTS - 1}`)); i++) {
  if (i > 5_000) throw new Error('the gateway did not store the grants');
  await new Promise((resolve) => setTimeout(resolve, 1));
}

const connect = (username: string, clientId: string) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username, password: PASSWORD, clientId, protocolVersion: 5, reconnectPeriod: 0 });
const publisher = await connect(PUBLISHER, 'bench-publisher');
const listener = await connect(LISTENER, 'bench-listener');
// The broker turns Nagle off on its side; mqtt.js leaves it on, and a QoS 0 publisher (no PUBACK
// coming back to carry the ACK) then waits out delayed ACKs. BENCH_CLIENT_NAGLE=1 keeps it on.
if (process.env.BENCH_CLIENT_NAGLE !== '1') for (const c of [publisher, listener]) (c.stream as Socket).setNoDelay(true);

// Every message carries its phase, sequence number and send time (µs of performance.now()) in
// its id; a reject names the candidate's id in payload.message_id, so one pattern reads both.
const MARK = /bench\.(\d+)\.(\d+)\.(\d+)/;
let sink: ((topic: string, phase: number, seq: number, sentUs: number) => void) | undefined;
listener.on('message', (topic, payload) => {
  const m = MARK.exec(payload.toString('latin1'));
  if (m) sink?.(topic, Number(m[1]), Number(m[2]), Number(m[3]));
});

async function subscribeAll(qos: Qos): Promise<void> {
  const granted = await listener.subscribeAsync([TOPIC.direct, PUBLIC, DELIVERED_ON.rejected], { qos });
  if (granted.some((g) => g.qos !== qos)) throw new Error(`SUBACK refused a filter: ${JSON.stringify(granted)}`);
}

let phaseCounter = 0;
let moderatedSent = 0; // approved candidates published in the whole run (for the task rotation)

function publish(client: MqttClient, path: Path, qos: Qos, phase: number, seq: number): void {
  let task = 'no_grant';
  if (path === 'moderated') {
    task = `t${Math.floor(moderatedSent++ / PER_TASK)}`;
    if (moderatedSent > GRANTS * PER_TASK) throw new Error('out of grants: raise GRANTS');
  }
  const id = `bench.${phase}.${seq}.${Math.round(performance.now() * 1000)}`;
  const envelope = `{"id":"${id}","type":"result","room_id":"${ROOM}","from":{"kind":"agent","id":"${PUBLISHER}"},"ts":${nowS()},"payload":{"task_id":"${task}","message_type":"progress","content":{"text":"${PAD}"}}}`;
  client.publish(TOPIC[path], envelope, { qos });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drain(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!done() && performance.now() < end) await sleep(5);
}

interface Throughput { rate: number; lost: number; wrong: number }

/** Closed loop, WINDOW/2…WINDOW in flight end to end; deliveries per second after a warm-up. */
async function throughput(path: Path, qos: Qos, seconds = TP_SECONDS, warmup = 0.5): Promise<Throughput> {
  const phase = ++phaseCounter;
  let sent = 0;
  let received = 0;
  let wrong = 0;
  let sending = true;
  // Refill in bursts (once half the window is back): sending one message per delivery settles
  // into a convoy of one message per event-loop turn, which measures that pacing, not capacity.
  const pump = () => {
    if (sent - received > WINDOW / 2) return;
    while (sending && sent - received < WINDOW) publish(publisher, path, qos, phase, sent++);
  };
  sink = (topic, p) => {
    if (p !== phase) return;
    if (topic !== DELIVERED_ON[path]) wrong++;
    received++;
    pump();
  };
  pump();
  await sleep(warmup * 1000);
  const [n0, t0] = [received, performance.now()];
  await sleep(seconds * 1000);
  const [n1, t1] = [received, performance.now()];
  sending = false;
  await drain(() => received >= sent);
  sink = undefined;
  return { rate: (n1 - n0) / ((t1 - t0) / 1000), lost: sent - received, wrong };
}

interface Latency { n: number; p50: number; p90: number; p99: number; max: number; lost: number; wrong: number; sendRate: number; loopP99: number }

/** Open loop at a fixed offered rate; latency = delivery time − the send time in the payload. */
async function latency(path: Path, qos: Qos, rate: number, seconds = SECONDS): Promise<Latency> {
  const phase = ++phaseCounter;
  const total = Math.round(rate * seconds);
  const skip = Math.round(rate * 0.25); // the first quarter second is warm-up
  const samples: number[] = [];
  let received = 0;
  let wrong = 0;
  sink = (topic, p, seq, sentUs) => {
    if (p !== phase) return;
    received++;
    if (topic !== DELIVERED_ON[path]) wrong++;
    if (seq >= skip) samples.push(performance.now() - sentUs / 1000);
  };
  let sent = 0;
  // How late the event loop ran meanwhile: a stall there delays every path alike.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000));
      while (sent < due) publish(publisher, path, qos, phase, sent++);
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  const sendRate = total / ((performance.now() - t0) / 1000);
  await drain(() => received >= total);
  loop.disable();
  sink = undefined;
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return { n: samples.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: samples.at(-1) ?? NaN, lost: total - received, wrong, sendRate, loopP99: loop.percentile(99) / 1e6 };
}

// ---------------------------------------------------------------------------------------------

const f0 = (x: number) => Math.round(x).toLocaleString('en-US');
const f2 = (x: number) => x.toFixed(2);
const pad = (s: string | number, n: number) => String(s).padStart(n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const started = performance.now();

console.log(`Gateway bench: node ${process.version}, load average ${load()}, database in ${dataDir}`);

// What one durable commit costs on this disk: every path pays it per history write, the
// moderated path per spend as well. 400 appends to a separate file in the same directory.
{
  const probe = new SqliteStore({ file: join(dataDir, 'probe.sqlite') });
  await probe.ensureRoom({ id: ROOM, name: 'probe', moderation: 'auto' });
  const times: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t = performance.now();
    await probe.appendMessage({ roomId: ROOM, topic: TOPIC.direct, topicKind: 'work', topicAgentId: PUBLISHER, messageId: null, type: null, fromId: null, payload: new Uint8Array(330), receivedAt: Date.now() });
    times.push(performance.now() - t);
  }
  await probe.close();
  times.sort((a, b) => a - b);
  console.log(`one history append (one commit): p50 ${f2(times[200]!)} ms, p99 ${f2(times[396]!)} ms, max ${f2(times[399]!)} ms`);
}

// Warm-up: JIT, prepared statements, the broker's subscription trie.
await subscribeAll(1);
for (const path of ['direct', 'relay', 'moderated', 'rejected'] as const) await latency(path, 1, 500, 0.6);

// BENCH_PROFILE=<path>: only that path's QoS 1 throughput for 5 s, then exit (run under
// `node --cpu-prof --import tsx` to see where one path's time goes).
const profiled = process.env.BENCH_PROFILE as Path | undefined;
if (profiled) {
  const r = await throughput(profiled, 1, 5);
  console.log(`${profiled} QoS 1: ${f0(r.rate)} msg/s (${r.lost} lost)`);
  await Promise.all([publisher.endAsync(true), listener.endAsync(true)]);
  await gateway.stop();
  await broker.close();
  await store.close();
  process.exit(0);
}

const TP_PATHS = ['direct', 'relay', 'moderated'] as const;
// BENCH_LATENCY_ONLY=1 skips the throughput rounds.
const latencyOnly = process.env.BENCH_LATENCY_ONLY === '1';
console.log(`\nThroughput: delivered msg/s, closed loop with ${WINDOW / 2}–${WINDOW} in flight; median of 3 rounds of ${TP_SECONDS} s, paths interleaved`);
console.log('qos    direct     relay  moderated   moderated/direct  moderated/relay');
const tp: Record<Qos, Record<(typeof TP_PATHS)[number], number>> = { 0: { direct: 0, relay: 0, moderated: 0 }, 1: { direct: 0, relay: 0, moderated: 0 } };
for (const qos of latencyOnly ? [] : ([0, 1] as const)) {
  await subscribeAll(qos);
  const rounds: Record<string, number[]> = { direct: [], relay: [], moderated: [] };
  for (let round = 0; round < 3; round++) {
    for (const path of TP_PATHS) {
      const r = await throughput(path, qos);
      if (r.lost || r.wrong) console.log(`  ! ${path} qos ${qos}: ${r.lost} not delivered, ${r.wrong} on another topic`);
      rounds[path]!.push(r.rate);
    }
  }
  for (const path of TP_PATHS) tp[qos][path] = median(rounds[path]!);
  const t = tp[qos];
  console.log(
    `${pad(qos, 3)} ${pad(f0(t.direct), 9)} ${pad(f0(t.relay), 9)} ${pad(f0(t.moderated), 10)}   ${pad(f2(t.moderated / t.direct), 16)}  ${pad(f2(t.moderated / t.relay), 15)}` +
      `   rounds: ${TP_PATHS.map((p) => rounds[p]!.map(f0).join('/')).join(' | ')}`,
  );
}

console.log(`\nLatency at a fixed offered rate: ms from send to delivery, ${SECONDS} s per cell, first 0.25 s dropped`);
console.log('qos   rate  path                   n    p50    p90    p99     max  lost  p99/direct  loop p99');
const results: { qos: Qos; rate: number; path: Path; r: Latency }[] = [];
for (const qos of [1, 0] as const) {
  await subscribeAll(qos);
  for (const rate of [200, 1_000]) {
    let direct: Latency | undefined;
    for (const path of ['direct', 'relay', 'moderated', 'rejected'] as const) {
      const r = await latency(path, qos, rate);
      direct ??= r;
      results.push({ qos, rate, path, r });
      console.log(
        `${pad(qos, 3)}  ${pad(f0(rate), 5)}  ${LABEL[path].padEnd(18)} ${pad(r.n, 5)} ${pad(f2(r.p50), 6)} ${pad(f2(r.p90), 6)} ${pad(f2(r.p99), 6)} ${pad(f2(r.max), 7)} ${pad(r.lost, 5)}  ${pad(path === 'direct' ? '' : f2(r.p99 / direct.p99), 10)}  ${pad(f2(r.loopP99), 8)}` +
          (r.wrong ? `  ! ${r.wrong} on another topic` : '') +
          (r.sendRate < rate * 0.97 ? `  ! offered only ${f0(r.sendRate)}/s` : ''),
      );
    }
  }
}

// Every approved candidate spent exactly one message of a grant.
const spent = (await store.listGrants({ roomId: ROOM })).reduce((sum, g) => sum + g.spent, 0);
const cell = (path: Path) => results.find((x) => x.qos === 1 && x.rate === 1_000 && x.path === path)!.r;
console.log('\nAgainst the aims (issue 3 item 12):');
if (!latencyOnly) console.log(`  throughput moderated/direct: QoS 0 ${f2(tp[0].moderated / tp[0].direct)}, QoS 1 ${f2(tp[1].moderated / tp[1].direct)} (aim ≥ 0.90); moderated/relay: QoS 0 ${f2(tp[0].moderated / tp[0].relay)}, QoS 1 ${f2(tp[1].moderated / tp[1].relay)}`);
console.log(`  p99 at 1,000 msg/s QoS 1: ${f2(cell('moderated').p99)} ms (aim ≤ 5 ms), ${f2(cell('moderated').p99 / cell('direct').p99)}× the direct path's ${f2(cell('direct').p99)} ms (aim ≤ 2×)`);
console.log(`  grant budget spent: ${f0(spent)} for ${f0(moderatedSent)} approved candidates sent${spent === moderatedSent ? '' : '  ! MISMATCH'}`);
console.log(`\nwhole run ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${load()} (2 cores: above ~1 means other work shared the machine)`);

await Promise.all([publisher.endAsync(true), listener.endAsync(true)]);
await gateway.stop();
await broker.close();
await store.close();
