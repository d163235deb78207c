// How the gateway benches measure, shared by bench/gateway.ts (embedded broker) and
// bench/gateway-external.ts (Mosquitto): the envelope, the publisher and listener clients, the
// closed-loop throughput and open-loop latency runs, the commit probe, and the tables they print.
// Each bench wires its broker and server side and names its paths; everything from the publish to
// the printed figure is this file's, so the two benches' figures are measured the same way.
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';

export type Qos = 0 | 1;

export const ROOM = 'bench';
export const PUBLISHER = 'agent.bench';
export const LISTENER = 'agent.listener';
export const PUBLIC = `rooms/${ROOM}/public`;
export const CONTROL = `rooms/${ROOM}/control`;
/** The direct path's topic: an agent's own `work` topic, which only the broker routes. */
export const WORK = `rooms/${ROOM}/agents/${PUBLISHER}/work`;
/** At most this many messages in flight end to end in the throughput runs (BENCH_WINDOW, even). */
export const WINDOW = Number(process.env.BENCH_WINDOW ?? 100);
if (!Number.isInteger(WINDOW) || WINDOW < 2 || WINDOW % 2 !== 0)
  throw new RangeError(`BENCH_WINDOW must be an even integer of at least 2, got ${process.env.BENCH_WINDOW}`);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const TP_SECONDS = Number(process.env.BENCH_TP_SECONDS ?? 2);
const PER_TASK = 9_000; // a grant allows at most 10,000 (schema): rotate tasks before one runs out
export const GRANTS = 40;
const PAD = 'x'.repeat(160); // envelopes of about 330 bytes

export const nowS = () => Math.floor(Date.now() / 1000);
/** µs since the epoch at µs resolution, the same clock in every process of the machine (send times). */
export const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

/** The grants for tasks t0…t39 that approved candidates spend, as a facilitator publishes them. */
export function grantEnvelopes(): Uint8Array[] {
  return Array.from({ length: GRANTS }, (_, k) => {
    const envelope = {
      id: `grant_${k}`,
      type: 'mic_grant',
      room_id: ROOM,
      from: { kind: 'user', id: 'did:key:z6MkBenchFacilitator' },
      ts: nowS(),
      payload: {
        task_id: `t${k}`,
        agent_id: PUBLISHER,
        max_messages: 10_000,
        allowed_message_types: ['progress'],
        expires_at: nowS() + 3600,
      },
    };
    return new TextEncoder().encode(JSON.stringify(envelope));
  });
}

/**
 * One bench's paths. `approved` is the path whose candidates carry a granted task (and spend it);
 * every other path's envelope names a task without a grant (rejected, where a gateway decides).
 */
export interface BenchPaths<P extends string> {
  readonly all: readonly P[];
  readonly topic: Readonly<Record<P, string>>;
  readonly deliveredOn: Readonly<Record<P, string>>;
  readonly label: Readonly<Record<P, string>>;
  readonly approved: P;
}

/** `cpuUs`: the server process's CPU time (all its threads, user and system) per delivery, in µs. */
export interface Throughput {
  rate: number;
  lost: number;
  wrong: number;
  cpuUs: number;
}
export interface Latency {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  lost: number;
  wrong: number;
  sendRate: number;
  loopP99: number;
}

export const f0 = (x: number) => Math.round(x).toLocaleString('en-US');
export const f2 = (x: number) => x.toFixed(2);
const pad = (s: string | number, n: number) => String(s).padStart(n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drain(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!done() && performance.now() < end) await sleep(5);
}

/** What one durable commit costs on this disk: 400 history appends to a separate file in `dir`. */
export async function probeCommit(dir: string): Promise<void> {
  const probe = new SqliteStore({ file: join(dir, 'probe.sqlite') });
  await probe.rooms.ensureRoom({ id: ROOM, name: 'probe', moderation: 'auto' });
  const times: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t = performance.now();
    await probe.rooms.appendMessage({
      roomId: ROOM,
      topic: WORK,
      topicKind: 'work',
      topicAgentId: PUBLISHER,
      messageId: null,
      type: null,
      fromId: null,
      payload: new Uint8Array(330),
      receivedAt: Date.now(),
    });
    times.push(performance.now() - t);
  }
  await probe.close();
  times.sort((a, b) => a - b);
  console.log(
    `one history append (one commit): p50 ${f2(times[200]!)} ms, p99 ${f2(times[396]!)} ms, max ${f2(times[399]!)} ms`,
  );
}

/** How late an event loop ran between `start` and `p99` (ms at the 99th percentile). */
export interface LoopProbe {
  start(): Promise<void> | void;
  p99(): Promise<number> | number;
}

function localLoopProbe(): LoopProbe {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  return {
    start: () => {
      loop.reset();
      loop.enable();
    },
    p99: () => {
      loop.disable();
      return loop.percentile(99) / 1e6;
    },
  };
}

export class GatewayMeasure<P extends string> {
  readonly #publisher: MqttClient;
  readonly #listener: MqttClient;
  readonly #paths: BenchPaths<P>;
  #phase = 0;
  readonly #settle: () => Promise<void>;
  readonly #loop: LoopProbe;
  readonly #serverCpu: () => Promise<NodeJS.CpuUsage> | NodeJS.CpuUsage;
  #sink: ((topic: string, phase: number, seq: number, sentUs: number) => void) | undefined;
  /** Approved candidates published in the whole run (for the task rotation and the budget check). */
  approvedSent = 0;
  /** Messages published per path in the whole run. */
  readonly sent: Record<P, number>;

  /**
   * `settle` runs before every throughput round and latency cell: a server still working through
   * the previous one's messages would otherwise slow the next (default: nothing to wait for).
   * `loop` measures how late the server's event loop ran during a latency cell, and `serverCpu`
   * reads the server process's CPU time (default: this process's).
   */
  constructor(
    publisher: MqttClient,
    listener: MqttClient,
    paths: BenchPaths<P>,
    options: {
      settle?: () => Promise<void>;
      loop?: LoopProbe;
      serverCpu?: () => Promise<NodeJS.CpuUsage> | NodeJS.CpuUsage;
    } = {},
  ) {
    this.#publisher = publisher;
    this.#listener = listener;
    this.#paths = paths;
    this.#settle = options.settle ?? (async () => undefined);
    this.#loop = options.loop ?? localLoopProbe();
    this.#serverCpu = options.serverCpu ?? (() => process.cpuUsage());
    this.sent = Object.fromEntries(paths.all.map((p) => [p, 0])) as Record<P, number>;
    // Every message carries its phase, sequence number and send time (µs of performance.now())
    // in its id; a reject names the candidate's id in payload.message_id, so one pattern reads both.
    const mark = /bench\.(\d+)\.(\d+)\.(\d+)/;
    listener.on('message', (topic, payload) => {
      const m = mark.exec(payload.toString('latin1'));
      if (m) this.#sink?.(topic, Number(m[1]), Number(m[2]), Number(m[3]));
    });
  }

  async subscribeAll(qos: Qos): Promise<void> {
    const filters = [...new Set(this.#paths.all.map((p) => this.#paths.deliveredOn[p]))];
    const granted = await this.#listener.subscribeAsync(filters, { qos });
    if (granted.some((g) => g.qos !== qos)) throw new Error(`SUBACK refused a filter: ${JSON.stringify(granted)}`);
  }

  #publish(path: P, qos: Qos, phase: number, seq: number): void {
    let task = 'no_grant';
    if (path === this.#paths.approved) {
      task = `t${Math.floor(this.approvedSent++ / PER_TASK)}`;
      if (this.approvedSent > GRANTS * PER_TASK) throw new Error('out of grants: raise GRANTS');
    }
    this.sent[path]++;
    const id = `bench.${phase}.${seq}.${Math.round(nowUs())}`;
    const envelope = `{"id":"${id}","type":"result","room_id":"${ROOM}","from":{"kind":"agent","id":"${PUBLISHER}"},"ts":${nowS()},"payload":{"task_id":"${task}","message_type":"progress","content":{"text":"${PAD}"}}}`;
    this.#publisher.publish(this.#paths.topic[path], envelope, { qos });
  }

  /** Closed loop, WINDOW/2…WINDOW in flight end to end; deliveries per second after a warm-up. */
  async throughput(path: P, qos: Qos, seconds = TP_SECONDS, warmup = 0.5): Promise<Throughput> {
    await this.#settle();
    const phase = ++this.#phase;
    let sent = 0;
    let received = 0;
    let wrong = 0;
    let sending = true;
    // Refill in bursts (once half the window is back): sending one message per delivery settles
    // into a convoy of one message per event-loop turn, which measures that pacing, not capacity.
    const pump = () => {
      if (sent - received > WINDOW / 2) return;
      while (sending && sent - received < WINDOW) this.#publish(path, qos, phase, sent++);
    };
    this.#sink = (topic, p) => {
      if (p !== phase) return;
      if (topic !== this.#paths.deliveredOn[path]) wrong++;
      received++;
      pump();
    };
    pump();
    await sleep(warmup * 1000);
    const [n0, t0, c0] = [received, performance.now(), await this.#serverCpu()];
    await sleep(seconds * 1000);
    const [n1, t1, c1] = [received, performance.now(), await this.#serverCpu()];
    sending = false;
    await drain(() => received >= sent);
    this.#sink = undefined;
    return {
      rate: (n1 - n0) / ((t1 - t0) / 1000),
      lost: sent - received,
      wrong,
      cpuUs: (c1.user - c0.user + c1.system - c0.system) / (n1 - n0),
    };
  }

  /** Open loop at a fixed offered rate; latency = delivery time − the send time in the payload. */
  async latency(path: P, qos: Qos, rate: number, seconds = SECONDS): Promise<Latency> {
    await this.#settle();
    const phase = ++this.#phase;
    const total = Math.round(rate * seconds);
    const skip = Math.round(rate * 0.25); // the first quarter second is warm-up
    const samples: number[] = [];
    let received = 0;
    let wrong = 0;
    this.#sink = (topic, p, seq, sentUs) => {
      if (p !== phase) return;
      received++;
      if (topic !== this.#paths.deliveredOn[path]) wrong++;
      if (seq >= skip) samples.push((nowUs() - sentUs) / 1000);
    };
    let sent = 0;
    // How late the server's event loop ran meanwhile: a stall there delays every path alike.
    await this.#loop.start();
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000));
        while (sent < due) this.#publish(path, qos, phase, sent++);
        if (sent >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    const sendRate = total / ((performance.now() - t0) / 1000);
    await drain(() => received >= total);
    const loopP99 = await this.#loop.p99();
    this.#sink = undefined;
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
    return {
      n: samples.length,
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: samples.at(-1) ?? NaN,
      lost: total - received,
      wrong,
      sendRate,
      loopP99,
    };
  }

  /**
   * BENCH_PROFILE=<path>: only that path's QoS 1 throughput for 5 s (run under
   * `node --cpu-prof --import tsx` to see where one path's time goes). True when it ran.
   */
  async profileIfAsked(): Promise<boolean> {
    const profiled = process.env.BENCH_PROFILE as P | undefined;
    if (!profiled) return false;
    const r = await this.throughput(profiled, 1, 5);
    // Every message of the run so far, warm-up included: what bench/profile-stages.ts divides by.
    const deliveries = Object.values<number>(this.sent).reduce((sum, n) => sum + n, 0);
    console.log(`${profiled} QoS 1: ${f0(r.rate)} msg/s (${r.lost} lost); ${deliveries} deliveries in the whole run`);
    return true;
  }

  /** Warm-up: JIT, prepared statements, the broker's subscriptions. Every path at 500/s QoS 1. */
  async warmUp(): Promise<void> {
    await this.subscribeAll(1);
    for (const path of this.#paths.all) await this.latency(path, 1, 500, 0.6);
  }

  /**
   * The throughput table: median of 3 rounds per path and QoS, paths interleaved; `ratios` are
   * [numerator, denominator] columns. With `skip` the header is printed and no round is run.
   */
  async throughputTable<T extends P>(
    paths: readonly T[],
    ratios: readonly (readonly [T, T])[],
    skip = false,
  ): Promise<Record<Qos, Record<T, number>>> {
    console.log(
      `\nThroughput: delivered msg/s, closed loop with ${WINDOW / 2}–${WINDOW} in flight; median of 3 rounds of ${TP_SECONDS} s, paths interleaved`,
    );
    const width = (p: string) => Math.max(9, p.length + 1);
    const ratioName = ([a, b]: readonly [T, T]) => `${a}/${b}`;
    console.log(`qos ${paths.map((p) => pad(p, width(p))).join(' ')}   ${ratios.map((r) => ratioName(r)).join('  ')}`);
    const zero = () => Object.fromEntries(paths.map((p) => [p, 0])) as Record<T, number>;
    const tp: Record<Qos, Record<T, number>> = { 0: zero(), 1: zero() };
    for (const qos of skip ? [] : ([0, 1] as const)) {
      await this.subscribeAll(qos);
      const rounds = Object.fromEntries(paths.map((p) => [p, [] as number[]])) as Record<T, number[]>;
      const cpu = Object.fromEntries(paths.map((p) => [p, [] as number[]])) as Record<T, number[]>;
      for (let round = 0; round < 3; round++) {
        for (const path of paths) {
          const r = await this.throughput(path, qos);
          if (r.lost || r.wrong)
            console.log(`  ! ${path} qos ${qos}: ${r.lost} not delivered, ${r.wrong} on another topic`);
          rounds[path].push(r.rate);
          cpu[path].push(r.cpuUs);
        }
      }
      for (const path of paths) tp[qos][path] = median(rounds[path]);
      const t = tp[qos];
      console.log(
        `${pad(qos, 3)} ${paths.map((p) => pad(f0(t[p]), width(p))).join(' ')}   ${ratios.map((r) => pad(f2(t[r[0]] / t[r[1]]), ratioName(r).length)).join('  ')}` +
          `   rounds: ${paths.map((p) => rounds[p].map(f0).join('/')).join(' | ')}` +
          // Each round runs the paths one after another, so a round's ratio compares like with like
          // on a machine whose speed drifts (docs/benchmarks.md, the gateway's per-round ratios).
          `   per-round ${ratios.map(([a, b]) => `${ratioName([a, b])} ${rounds[a].map((x, i) => f2(x / rounds[b][i]!)).join('/')}`).join(', ')}`,
      );
      // CPU time per delivery: what a path costs, whatever else the machine's cores were doing
      // (docs/benchmarks.md, "Gateway"). Its ratio is the throughput ratio a saturated server would give.
      console.log(
        `    server cpu µs per delivery: ${paths.map((p) => `${p} ${cpu[p].map((x) => x.toFixed(1)).join('/')}`).join(' | ')}` +
          `   per-round ${ratios.map(([a, b]) => `${ratioName([a, b])} ${cpu[b].map((x, i) => f2(x / cpu[a][i]!)).join('/')}`).join(', ')}`,
      );
    }
    return tp;
  }

  /** The latency table: QoS 1 then 0, at 200 and 1,000 msg/s, each path; the first is the baseline. */
  async latencyTable(paths: readonly P[]): Promise<{ qos: Qos; rate: number; path: P; r: Latency }[]> {
    console.log(
      `\nLatency at a fixed offered rate: ms from send to delivery, ${SECONDS} s per cell, first 0.25 s dropped`,
    );
    console.log('qos   rate  path                   n    p50    p90    p99     max  lost  p99/direct  loop p99');
    const results: { qos: Qos; rate: number; path: P; r: Latency }[] = [];
    for (const qos of [1, 0] as const) {
      await this.subscribeAll(qos);
      for (const rate of [200, 1_000]) {
        let baseline: Latency | undefined;
        for (const path of paths) {
          const r = await this.latency(path, qos, rate);
          baseline ??= r;
          results.push({ qos, rate, path, r });
          console.log(
            `${pad(qos, 3)}  ${pad(f0(rate), 5)}  ${this.#paths.label[path].padEnd(18)} ${pad(r.n, 5)} ${pad(f2(r.p50), 6)} ${pad(f2(r.p90), 6)} ${pad(f2(r.p99), 6)} ${pad(f2(r.max), 7)} ${pad(r.lost, 5)}  ${pad(path === paths[0] ? '' : f2(r.p99 / baseline.p99), 10)}  ${pad(f2(r.loopP99), 8)}` +
              (r.wrong ? `  ! ${r.wrong} on another topic` : '') +
              (r.sendRate < rate * 0.97 ? `  ! offered only ${f0(r.sendRate)}/s` : ''),
          );
        }
      }
    }
    return results;
  }
}
