// The gateway benches' two agents (publisher and listener), in the bench's own process (the
// default) or, with BENCH_CLIENTS=process, in a process of their own, as agents run. In one
// process their MQTT work shares the server's event loop, so a stall on either side delays the
// other; in two, every hop also waits for the other process to be scheduled, which on a 2-core
// machine running the broker too costs every path, direct included (docs/benchmarks.md). Both ends
// of the split are here:
// - `startBenchClients` returns a handle whose methods run GatewayMeasure's. Forked, it answers
//   the child's three questions: wait until the server has caught up (`settle`), how late the
//   server's event loop ran during a latency cell (the "loop p99" column is the server's), and
//   how much CPU time the server's process has used (the throughput table's cpu line).
// - Run as the child, it connects the two clients with what it was sent and runs GatewayMeasure,
//   which times everything in that one process. Tables are printed there, on the shared stdout.
import { fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mqtt from 'mqtt';
import { GatewayMeasure, type BenchPaths, type Latency, type Qos } from './gateway-measure';
import { channel, type Wire } from './ipc-channel';

interface Credential {
  readonly username: string;
  readonly password: string;
  readonly clientId: string;
}

export interface BenchClientsConfig<P extends string> {
  readonly url: string;
  readonly publisher: Credential;
  readonly listener: Credential;
  readonly paths: BenchPaths<P>;
}

const CHILD_FLAG = '--bench-clients';

export interface BenchClients<P extends string> {
  warmUp(): Promise<void>;
  profileIfAsked(): Promise<boolean>;
  throughputTable<T extends P>(
    paths: readonly T[],
    ratios: readonly (readonly [T, T])[],
    skip?: boolean,
  ): Promise<Record<Qos, Record<T, number>>>;
  latencyTable(paths: readonly P[]): Promise<{ qos: Qos; rate: number; path: P; r: Latency }[]>;
  /** Approved candidates and messages per path sent in the whole run. */
  counts(): Promise<{ approvedSent: number; sent: Record<P, number> }>;
  /** Publishes as the publisher, after everything it sent before (a marker for `settle`). */
  publish(topic: string, payload: string, qos: Qos): Promise<void>;
  close(): Promise<void>;
}

/** The agents as BENCH_CLIENTS says; `settle` is the server's catch-up wait. */
export function startBenchClients<P extends string>(
  config: BenchClientsConfig<P>,
  settle: () => Promise<void> = async () => undefined,
): Promise<BenchClients<P>> {
  return process.env.BENCH_CLIENTS === 'process'
    ? forkBenchClients(config, settle)
    : inProcessBenchClients(config, settle);
}

async function connectClients(config: BenchClientsConfig<string>): Promise<[mqtt.MqttClient, mqtt.MqttClient]> {
  const connect = (c: Credential) =>
    mqtt.connectAsync(config.url, {
      username: c.username,
      password: c.password,
      clientId: c.clientId,
      protocolVersion: 5,
      reconnectPeriod: 0,
    });
  const clients: [mqtt.MqttClient, mqtt.MqttClient] = [await connect(config.publisher), await connect(config.listener)];
  // mqtt.js leaves Nagle on, and a QoS 0 publisher (no PUBACK coming back to carry the ACK) then
  // waits out delayed ACKs. BENCH_CLIENT_NAGLE=1 keeps it on.
  if (process.env.BENCH_CLIENT_NAGLE !== '1') for (const c of clients) (c.stream as Socket).setNoDelay(true);
  return clients;
}

async function inProcessBenchClients<P extends string>(
  config: BenchClientsConfig<P>,
  settle: () => Promise<void>,
): Promise<BenchClients<P>> {
  const [publisher, listener] = await connectClients(config);
  const measure = new GatewayMeasure(publisher, listener, config.paths, { settle });
  return {
    warmUp: () => measure.warmUp(),
    profileIfAsked: () => measure.profileIfAsked(),
    throughputTable: (paths, ratios, skip) => measure.throughputTable(paths, ratios, skip),
    latencyTable: (paths) => measure.latencyTable(paths),
    counts: async () => ({ approvedSent: measure.approvedSent, sent: { ...measure.sent } }),
    publish: async (topic, payload, qos) => void publisher.publish(topic, payload, { qos }),
    close: async () => void (await Promise.all([publisher.endAsync(true), listener.endAsync(true)])),
  };
}

/** Forks the agents' process and connects its clients there. */
async function forkBenchClients<P extends string>(
  config: BenchClientsConfig<P>,
  settle: () => Promise<void> = async () => undefined,
): Promise<BenchClients<P>> {
  // execArgv is set so that the bench's own flags (--cpu-prof) do not profile the agents.
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    env: process.env,
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const wire = channel(
    (message) => child.send(message),
    async (kind) => {
      if (kind === 'settle') return settle();
      if (kind === 'loopStart') {
        loop.reset();
        return loop.enable();
      }
      if (kind === 'loopP99') {
        loop.disable();
        return loop.percentile(99) / 1e6;
      }
      if (kind === 'cpu') return process.cpuUsage();
      throw new Error(`unknown request ${kind}`);
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message) => wire.receive(message as Wire));
  child.once('exit', (code) => {
    if (code) console.error(`bench clients exited with ${code}`);
  });
  await wire.request('connect', config);
  const call =
    <T>(method: string) =>
    (...args: unknown[]) =>
      wire.request(method, ...args) as Promise<T>;
  return {
    warmUp: call('warmUp'),
    profileIfAsked: call('profileIfAsked'),
    throughputTable: call('throughputTable'),
    latencyTable: call('latencyTable'),
    counts: call('counts'),
    publish: call('publish'),
    async close() {
      await wire.request('close');
      child.disconnect();
      await exited;
    },
  } as BenchClients<P>;
}

// ---------------------------------------------------------------------------------------------
// The child.

async function runClients(): Promise<void> {
  let measure: GatewayMeasure<string> | undefined;
  let clients: mqtt.MqttClient[] = [];
  const wire = channel(
    (message) => process.send!(message),
    async (kind, args) => {
      if (kind === 'connect') {
        const config = args[0] as BenchClientsConfig<string>;
        clients = await connectClients(config);
        measure = new GatewayMeasure(clients[0]!, clients[1]!, config.paths, {
          settle: async () => void (await wire.request('settle')),
          loop: {
            start: async () => void (await wire.request('loopStart')),
            p99: async () => (await wire.request('loopP99')) as number,
          },
          serverCpu: async () => (await wire.request('cpu')) as NodeJS.CpuUsage,
        });
        return;
      }
      if (!measure) throw new Error('not connected');
      switch (kind) {
        case 'warmUp':
          return measure.warmUp();
        case 'profileIfAsked':
          return measure.profileIfAsked();
        case 'throughputTable':
          return measure.throughputTable(
            args[0] as string[],
            args[1] as [string, string][],
            args[2] as boolean | undefined,
          );
        case 'latencyTable':
          return measure.latencyTable(args[0] as string[]);
        case 'counts':
          return { approvedSent: measure.approvedSent, sent: measure.sent };
        case 'publish':
          clients[0]!.publish(args[0] as string, args[1] as string, { qos: args[2] as Qos });
          return;
        case 'close':
          await Promise.all(clients.map((c) => c.endAsync(true)));
          return;
        default:
          throw new Error(`unknown request ${kind}`);
      }
    },
  );
  process.on('message', (message) => wire.receive(message as Wire));
  process.once('disconnect', () => process.exit(0));
}

if (process.argv.includes(CHILD_FLAG)) void runClients();
