// Gateway throughput with two Switchboard instances against one (docs/benchmarks.md), same broker,
// same database, same run. Each instance is its own process (`tsx server/main.ts`, as `npm start`
// runs it) on one private Mosquitto 2 and one fresh PostgreSQL database; the instances share the
// candidates through the MQTT 5 shared subscription (docs/decisions-cluster.md).
//
// Load: AGENTS agents (each its own MQTT client and grant) publish granted candidates (an AOR
// `result`, ~330 bytes, QoS 1) to their candidate subtopic, keeping at most WINDOW per agent in
// flight end to end; one listener counts what the gateways approve on rooms/bench/public. A
// round runs ROUND_SECONDS after a one-second warm-up; rounds alternate 1, 2, 1, 2, … instances
// (the second instance is started for its round and stopped with SIGTERM after it, so it leaves
// the shared subscription), and the figure per topology is the median of its rounds.
//
// Run: npm run bench:cluster (tsx bench/cluster.ts), about a minute. Env: BENCH_ROUNDS per
// topology (3), BENCH_SECONDS per round (5), BENCH_AGENTS (4), BENCH_WINDOW (16),
// TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test, a fresh database is made there
// and dropped). Results: docs/benchmarks.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { Client } from 'pg';
import { agentCandidateTopic } from '../server/mqtt/dynsec-acls';
import { DynsecAdmin } from '../server/mqtt/mosquitto-dynsec';
import { openPgStore } from '../server/store/pg/pg-store';
import { startPrivateMosquitto } from '../server/test-support/private-mosquitto';
import { printBenchResult } from './bench-result';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const AGENTS = Number(process.env.BENCH_AGENTS ?? 4);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 16);
const ROOM = 'bench';
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const PAD = 'x'.repeat(160);

const mosquitto = await startPrivateMosquitto();
const database = `sb_bench_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-cluster-'));
const children = new Set<ChildProcess>();
const pgAdmin = async (sql: string) => {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};
await pgAdmin(`CREATE DATABASE ${database}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${database}`;
const databaseUrl = url.toString();

async function cleanUp(): Promise<void> {
  for (const child of children) child.kill('SIGKILL');
  await mosquitto.stop();
  await pgAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}

const admin = await DynsecAdmin.connect({
  url: mosquitto.url,
  username: mosquitto.admin.username,
  password: mosquitto.admin.password,
  reservedUsernames: [],
});
let instanceCount = 0;

/** One instance as its own process, with its own broker client bound to its own client id. */
async function startInstance(): Promise<ChildProcess> {
  const username = `switchboard-bench-${++instanceCount}`;
  const password = randomBytes(18).toString('base64url');
  await admin.setupServer(username, password, username);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // The bench's agents publish as fast as the cluster decides, far past a real agent's quota.
    env: {
      ...process.env,
      PORT: '0',
      DEMO: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      MQTT_URL: mosquitto.url,
      MQTT_USERNAME: username,
      MQTT_PASSWORD: password,
      MQTT_CLIENT_ID: username,
      MQTT_AGENT_MSGS: 'off',
      MQTT_AGENT_BYTES: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/listening on http/.test(log)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}:\n${log}`)));
  });
  return child;
}

async function stopInstance(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  children.delete(child);
}

try {
  const first = await startInstance();
  // The room and the grants go straight into the database, as a facilitator's grant ends up.
  const store = await openPgStore({ url: databaseUrl });
  await store.rooms.ensureRoom({ id: ROOM, name: 'Bench', moderation: 'auto' });
  const nowS = Math.floor(Date.now() / 1000);
  const agents = Array.from({ length: AGENTS }, (_, i) => `agent.bench${i}`);
  let grantSeq = 0;
  const grantFor = async (agentId: string) => {
    const taskId = `t${grantSeq++}`;
    await store.rooms.putGrant({
      roomId: ROOM,
      agentId,
      taskId,
      maxMessages: 10_000,
      allowedTypes: ['progress'],
      expiresAt: nowS + 3600,
      grantedAt: nowS,
      grantMessageId: `g_${taskId}`,
    });
    return taskId;
  };

  const clients: { agentId: string; client: MqttClient; task: string; used: number; inFlight: number }[] = [];
  for (const agentId of agents) {
    const password = randomBytes(18).toString('base64url');
    await admin.addAgent(agentId, password);
    const client = await mqtt.connectAsync(mosquitto.url, {
      username: agentId,
      password,
      clientId: agentId,
      protocolVersion: 5,
      reconnectPeriod: 0,
    });
    clients.push({ agentId, client, task: await grantFor(agentId), used: 0, inFlight: 0 });
  }
  const listenerPassword = randomBytes(18).toString('base64url');
  await admin.addAgent('agent.listener', listenerPassword);
  const listener = await mqtt.connectAsync(mosquitto.url, {
    username: 'agent.listener',
    password: listenerPassword,
    clientId: 'agent.listener',
    protocolVersion: 5,
    reconnectPeriod: 0,
  });
  await listener.subscribeAsync(`rooms/${ROOM}/public`, { qos: 1 });

  let approved = 0;
  let seq = 0;
  let running = false;
  const byAgent = new Map(clients.map((c) => [c.agentId, c]));
  const send = (c: (typeof clients)[number]) => {
    // A grant allows at most 10,000 messages: a fresh one before it runs out.
    if (c.used >= 9_000) return;
    c.used++;
    c.inFlight++;
    const id = `bench_${seq++}`;
    const envelope = `{"id":"${id}","type":"result","room_id":"${ROOM}","from":{"kind":"agent","id":"${c.agentId}"},"ts":${nowS},"payload":{"task_id":"${c.task}","message_type":"progress","content":{"text":"${PAD}"}}}`;
    c.client.publish(agentCandidateTopic(ROOM, c.agentId), envelope, { qos: 1 });
  };
  listener.on('message', (_topic, payload) => {
    const from = /"from":\{"kind":"agent","id":"([^"]+)"/.exec(payload.toString('latin1'))?.[1];
    const c = from ? byAgent.get(from) : undefined;
    if (!c) return;
    approved++;
    c.inFlight--;
    if (running) send(c);
  });

  async function round(): Promise<number> {
    for (const c of clients) {
      if (c.used > 6_000) {
        c.task = await grantFor(c.agentId);
        c.used = 0;
      }
    }
    running = true;
    for (const c of clients) for (let i = 0; i < WINDOW; i++) send(c);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const start = approved;
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1_000));
    const rate = ((approved - start) * 1_000) / (performance.now() - t0);
    running = false;
    // Drain: what is in flight is approved before the topology changes.
    for (let i = 0; i < 1_000 && clients.some((c) => c.inFlight > 0); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return rate;
  }

  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
  const rates: Record<1 | 2, number[]> = { 1: [], 2: [] };
  for (let r = 0; r < ROUNDS; r++) {
    rates[1].push(await round());
    const second = await startInstance();
    rates[2].push(await round());
    await stopInstance(second);
    console.log(
      `round ${r + 1}: one instance ${median(rates[1].slice(-1)).toFixed(0)}/s, two instances ${median(rates[2].slice(-1)).toFixed(0)}/s`,
    );
  }
  const [one, two] = [median(rates[1]), median(rates[2])];
  console.log(
    `\nApproved candidates per second (median of ${ROUNDS} rounds of ${SECONDS} s, ${AGENTS} agents × ${WINDOW} in flight, load average ${(loadavg()[0] ?? 0).toFixed(1)}):`,
  );
  console.log(
    `| instances | approved/s | ratio |\n| --- | --- | --- |\n| 1 | ${one.toFixed(0)} | 1.00 |\n| 2 | ${two.toFixed(0)} | ${(two / one).toFixed(2)} |`,
  );
  printBenchResult('cluster', [
    {
      metric: 'approved candidates/s, two instances, PostgreSQL + Mosquitto',
      value: two,
      unit: '/s',
      baseline: 'one instance',
      baselineValue: one,
    },
  ]);
  await Promise.all([listener.endAsync(), ...clients.map((c) => c.client.endAsync())]);
  await store.close();
  await admin.close();
  await stopInstance(first);
} finally {
  await cleanUp();
}
