// Agents list benchmark (npx tsx bench/agent-list.ts [--agents N] [--baseline M]; `npm run
// bench:agent-list`): what the Agents screen and the rooms list cost a signed-in operator with N
// agents (default 10,000) against the same reads with M (default 100), each on a fresh store the
// compiled server opens (plain node, SQLite, embedded broker). Every agent has a credential and
// the audit entry its creation leaves, and one in fifty is suspended, so a page reads newest
// actions and names as the console's does. Figures are medians of READS reads after a warm-up;
// the ratio is N's over M's. Aim (decisions-server.md §87): each read under 100 ms at 10,000
// agents, a ratio near 1 (a page costs the same whatever the number of agents).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../server/store/open-store';
import { buildLikeStart, SERVER_MAIN } from '../server/test-support/compiled-entry';
import { sessionCookie } from '../server/test-support/sessions';
import { printBenchResult, type BenchFigure } from './bench-result';

const { values: flags } = parseArgs({
  options: { agents: { type: 'string', default: '10000' }, baseline: { type: 'string', default: '100' } },
});
const AGENTS = Number(flags.agents);
const BASELINE = Number(flags.baseline);
if (!Number.isInteger(AGENTS) || AGENTS < 1 || !Number.isInteger(BASELINE) || BASELINE < 1)
  throw new Error('--agents and --baseline take positive whole numbers');
const HOST = '127.0.0.1';
const ROOMS = 100;
const READS = 50;
const WARM_UP = 5;
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';

const READS_TIMED: readonly [string, string][] = [
  ['GET /api/agent-accounts (first page, 100)', '/api/agent-accounts'],
  ['GET /api/agent-accounts?limit=500', '/api/agent-accounts?limit=500'],
  ['GET /api/agent-accounts?search= (one agent)', '/api/agent-accounts?search=agent.list-00042&limit=1'],
  ['GET /api/rooms', '/api/rooms'],
];

const agentId = (i: number) => `agent.list-${String(i).padStart(5, '0')}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The compiled server on `dataDir`; resolves once /health answers. */
async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const env = { DATA_DIR: dataDir, PORT: String(httpPort), MQTT_PORT: String(mqttPort), HOST, DEMO: '0' };
  const child = spawn(process.execPath, SERVER_MAIN, {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://${HOST}:${httpPort}`;
  const until = Date.now() + 60_000;
  while (!(await fetch(`${url}/health`).catch(() => null))?.ok) {
    if (child.exitCode !== null || Date.now() > until) throw new Error('the server did not answer /health');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url };
}

/** N credentials, each with its creation's audit entry, in the store the server then opens. */
async function provision(dataDir: string, count: number): Promise<string> {
  const store = await openStore({ dataDir, databaseUrl: undefined });
  const at = Date.now();
  await store.access.putOperator({ did: FACILITATOR, role: 'facilitator', createdAt: at, name: 'Fay' });
  for (let i = 0; i < count; i++) {
    await store.access.putAgentCredential({ agentId: agentId(i), passwordHash: `sha256$${i}`, createdAt: at });
    const details = { agentId: agentId(i) };
    await store.access.appendAudit({
      at,
      actorDid: FACILITATOR,
      action: 'agent.create',
      roomId: null,
      messageId: null,
      details,
    });
    if (i % 50 === 0) {
      await store.access.setAgentSuspension(agentId(i), { at, by: FACILITATOR, reason: 'bench' });
      await store.access.appendAudit({
        at,
        actorDid: FACILITATOR,
        action: 'agent.suspend',
        roomId: null,
        messageId: null,
        details: { ...details, reason: 'bench' },
      });
    }
  }
  for (let r = 0; r < ROOMS; r++)
    await store.rooms.ensureRoom({ id: `list-${r}`, name: `List ${r}`, moderation: 'auto' });
  const cookie = await sessionCookie(store, OBSERVER, 'observer');
  await store.close();
  return cookie;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Figure {
  readonly ms: number;
  readonly bytes: number;
  /** Items in the answer's list: agents, or rooms. */
  readonly rows: number;
}

interface Running {
  readonly url: string;
  readonly cookie: string;
  stop(): Promise<void>;
}

/** A fresh store with `count` agents and the server on it. */
async function serverWith(count: number): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-agent-list-'));
  const cookie = await provision(dataDir, count);
  const { child, url } = await startServer(dataDir);
  return {
    url,
    cookie,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function timedRead(server: Running, path: string): Promise<{ ms: number; body: ArrayBuffer }> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${path}`, { headers: { cookie: server.cookie } });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return { ms: performance.now() - t0, body };
}

function figure(times: readonly number[], body: ArrayBuffer): Figure {
  const answer = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
  const list = Object.values(answer).find(Array.isArray) as unknown[] | undefined;
  return { ms: median(times), bytes: body.byteLength, rows: list?.length ?? 0 };
}

async function main(): Promise<void> {
  if (buildLikeStart(['server'], { output: 'inherit' }).status !== 0) throw new Error('the server build failed');
  const servers: Running[] = [];
  try {
    servers.push(await serverWith(BASELINE), await serverWith(AGENTS));
    const [small, large] = servers as [Running, Running];
    const count = new Intl.NumberFormat('en');
    const size = (x: Figure) => `${x.rows} rows, ${(x.bytes / 1024).toFixed(0)} KB`;
    const rows: string[] = [];
    const figures: BenchFigure[] = [];
    for (const [label, path] of READS_TIMED) {
      // Turn about, so whatever else the machine runs weighs on both the same.
      const times: [number[], number[]] = [[], []];
      const bodies: ArrayBuffer[] = [];
      for (let i = 0; i < WARM_UP + READS; i++)
        for (const [k, server] of [small, large].entries()) {
          const { ms, body } = await timedRead(server, path);
          if (i >= WARM_UP) times[k]!.push(ms);
          bodies[k] = body;
        }
      const a = figure(times[0], bodies[0]!);
      const b = figure(times[1], bodies[1]!);
      rows.push(
        `| ${label} | ${a.ms.toFixed(1)} (${size(a)}) | ${b.ms.toFixed(1)} (${size(b)}) | ${(b.ms / a.ms).toFixed(2)} |`,
      );
      figures.push({
        metric: `${label}, ${count.format(AGENTS)} agents (aim < 100 ms)`,
        value: b.ms,
        unit: 'ms',
        baseline: `${count.format(BASELINE)} agents`,
        baselineValue: a.ms,
      });
    }
    console.log(
      [
        '',
        `| read (median of ${READS}, ms) | ${count.format(BASELINE)} agents | ${count.format(AGENTS)} agents | ratio |`,
        '| --- | --- | --- | --- |',
        ...rows,
      ].join('\n'),
    );
    printBenchResult('agent-list', figures);
  } finally {
    for (const server of servers) await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench:agent-list FAILED:', error);
    process.exit(1);
  },
);
