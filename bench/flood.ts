// Flood benchmark (npx tsx bench/flood.ts [--pg]; `npm run bench:flood`).
//
// A real server in this process (empty DATA_DIR, or with --pg a fresh PostgreSQL database at
// TEST_DATABASE_URL; no demo), a facilitator session made as login makes it, and every console
// read that touches the gateway's decisions, over HTTP: the Agents screen's list
// (GET /api/agent-accounts, "rejects in the last hour"), the room health panel
// (GET /api/rooms/{id}/health), the rooms list and the inbox (its summary counts rejects). Each is
// measured at ~0 rejects (the baseline) and again after FLOOD_REJECTS (1,000,000) rejects of one
// agent in one room within the last hour, stored through the store's real write path
// (recordCandidate: the candidate, the gateway's reject and their counts in one transaction,
// thousands at a time through the group commit), in the same run. Beside each, `/health` p99
// while the Agents screen and the room health panel poll (here as fast as they answer, a harder
// load than one tab's 5 s and 10 s). Aim (decisions-server.md §73): every read < 50 ms and the
// /health p99 < 50 ms after the flood; the ratio to the baseline says what the flood cost.
import '../server/test-support/quiet-logs';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../server/config';
import { startSwitchboard, type RunningSwitchboard } from '../server/runtime/start-switchboard';
import type { CandidateJudgement, NewRoomMessage } from '../server/store/store';
import { sessionCookie } from '../server/test-support/sessions';
import { printBenchResult } from './bench-result';

const PG = process.argv.includes('--pg');
const FLOOD = Number(process.env.FLOOD_REJECTS ?? 1_000_000);
const RUNS = Number(process.env.FLOOD_RUNS ?? 30);
const HEALTH_MS = Number(process.env.FLOOD_HEALTH_MS ?? 10_000);
const SETTLE_MS = Number(process.env.FLOOD_SETTLE_MS ?? 10_000);
const ROOM = 'flood';
const FLOODER = 'agent.flooder';
const AIM_MS = 50;
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const encoder = new TextEncoder();

const READS = {
  'agent accounts': '/api/agent-accounts',
  'room health': `/api/rooms/${ROOM}/health`,
  'rooms list': '/api/rooms',
  inbox: '/api/inbox',
} as const;
type Read = keyof typeof READS;

interface Figures {
  readonly rejects: number;
  readonly reads: Record<Read, { median: number; p99: number }>;
  readonly health: { p50: number; p99: number; n: number };
  /** The store's own reads, in this process without HTTP: what the routes ask of it. */
  readonly store: { roomActivity: number; rejectsByAgent: number };
}

async function storeMedian(work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  return quantile(
    times.sort((a, b) => a - b),
    0.5,
  );
}

async function storeReads(sb: RunningSwitchboard): Promise<Figures['store']> {
  const now = Date.now();
  return {
    roomActivity: await storeMedian(() => sb.store.rooms.roomActivity(ROOM, now - 3_600_000, now)),
    rejectsByAgent: await storeMedian(() => sb.store.rooms.rejectsByAgent(now - 3_600_000)),
  };
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function timed(url: string, cookie: string, retried = false): Promise<number> {
  const t0 = performance.now();
  let res: Response;
  try {
    res = await fetch(url, { headers: { cookie } });
  } catch (error) {
    // A kept-alive connection the server closed while the flood ran: once more on a new one.
    if (retried) throw error;
    return timed(url, cookie, true);
  }
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t0;
}

async function measure(sb: RunningSwitchboard, cookie: string): Promise<Omit<Figures, 'rejects' | 'store'>> {
  const reads = {} as Figures['reads'];
  for (const [name, path] of Object.entries(READS) as [Read, string][]) {
    for (let i = 0; i < 3; i++) await timed(sb.url + path, cookie);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(sb.url + path, cookie));
    times.sort((a, b) => a - b);
    reads[name] = { median: quantile(times, 0.5), p99: quantile(times, 0.99) };
  }
  // /health every 20 ms while the two panels poll back to back.
  let polling = true;
  const poll = async (path: string) => {
    while (polling) await timed(sb.url + path, cookie);
  };
  const pollers = [poll(READS['agent accounts']), poll(READS['room health'])];
  const health: number[] = [];
  const until = performance.now() + HEALTH_MS;
  while (performance.now() < until) {
    health.push(await timed(`${sb.url}/health`, ''));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  polling = false;
  await Promise.all(pollers);
  health.sort((a, b) => a - b);
  return { reads, health: { p50: quantile(health, 0.5), p99: quantile(health, 0.99), n: health.length } };
}

/** The candidate agent.flooder published without a grant, and the gateway's reject of it. */
function refused(i: number, at: number): [NewRoomMessage, CandidateJudgement] {
  const id = `flood-${i}`;
  const candidate: NewRoomMessage = {
    roomId: ROOM,
    topic: `rooms/${ROOM}/public_candidates`,
    topicKind: 'public_candidates',
    topicAgentId: FLOODER,
    messageId: id,
    type: 'result',
    fromId: FLOODER,
    payload: encoder.encode(JSON.stringify({ id, type: 'result', from: FLOODER, payload: { text: 'again' } })),
    receivedAt: at,
  };
  const rejectId = `rej-${id}`;
  const reject: NewRoomMessage = {
    roomId: ROOM,
    topic: `rooms/${ROOM}/control`,
    topicKind: 'control',
    topicAgentId: null,
    messageId: rejectId,
    type: 'reject',
    fromId: 'gateway',
    payload: encoder.encode(
      JSON.stringify({
        id: rejectId,
        type: 'reject',
        from: 'gateway',
        payload: { reason: 'no_mic_grant', message_id: id, detail: 'No live mic grant for this agent.' },
      }),
    ),
    receivedAt: at,
  };
  return [candidate, { grantKey: undefined, decide: () => ({ kind: 'reject', reject }) }];
}

async function flood(sb: RunningSwitchboard, n: number): Promise<number> {
  const t0 = performance.now();
  // Spread over the 50 minutes before now, so every one is in the hour the screens read.
  const start = Date.now() - 50 * 60_000;
  const step = (50 * 60_000) / n;
  for (let i = 0; i < n; i += 4_096)
    await Promise.all(
      Array.from({ length: Math.min(4_096, n - i) }, (_, k) => {
        const [candidate, judgement] = refused(i + k, Math.floor(start + (i + k) * step));
        return sb.store.rooms.recordCandidate(candidate, judgement);
      }),
    );
  return (performance.now() - t0) / 1000;
}

async function run(env: Record<string, string>): Promise<{ before: Figures; after: Figures; seconds: number }> {
  const sb = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DEMO: '0', ...env }));
  try {
    const cookie = await sessionCookie(sb.store, `did:key:z6MkBench${randomBytes(6).toString('hex')}`, 'facilitator');
    await sb.store.rooms.ensureRoom({ id: ROOM, name: 'Flood', moderation: 'auto' });
    for (const agentId of [FLOODER, 'agent.quiet', 'agent.other'])
      await sb.store.access.putAgentCredential({ agentId, passwordHash: 'scrypt$bench', createdAt: Date.now() });
    await flood(sb, 10);
    const before = { rejects: 10, store: await storeReads(sb), ...(await measure(sb, cookie)) };
    const seconds = await flood(sb, FLOOD);
    // The WAL checkpoint worker copies what the flood wrote; measure once it had a moment.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = { rejects: FLOOD + 10, store: await storeReads(sb), ...(await measure(sb, cookie)) };
    return { before, after, seconds };
  } finally {
    await sb.close();
  }
}

async function pgAdmin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let result: Awaited<ReturnType<typeof run>>;
if (PG) {
  const database = `sb_flood_${randomBytes(4).toString('hex')}`;
  await pgAdmin(`CREATE DATABASE ${database}`);
  try {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    result = await run({ DATABASE_URL: url.toString() });
  } finally {
    await pgAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-flood-'));
  try {
    result = await run({ DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const { before, after, seconds } = result;
const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;
const mark = (v: number) => (v < AIM_MS ? '' : ' ✗');
const rows = (Object.keys(READS) as Read[]).map(
  (name) =>
    `| ${name} | ${ms(before.reads[name].median)} / ${ms(before.reads[name].p99)} | ${ms(after.reads[name].median)} / ${ms(after.reads[name].p99)}${mark(after.reads[name].p99)} | ${(after.reads[name].median / before.reads[name].median).toFixed(2)}× |`,
);
console.log(
  [
    `Flood on ${PG ? 'PostgreSQL' : 'SQLite'}: ${FLOOD.toLocaleString('en')} rejects of one agent stored in ${seconds.toFixed(0)} s ` +
      `(${Math.round(FLOOD / seconds).toLocaleString('en')} a second, each with its candidate); median / p99 of ${RUNS} reads each:`,
    '',
    `| read | baseline (${before.rejects} rejects) | after the flood (${after.rejects.toLocaleString('en')}) | ratio (median) |`,
    '| --- | --- | --- | --- |',
    ...rows,
    `| store: roomActivity (no HTTP) | ${ms(before.store.roomActivity)} | ${ms(after.store.roomActivity)} | ${(after.store.roomActivity / before.store.roomActivity).toFixed(2)}× |`,
    `| store: rejectsByAgent, every room (no HTTP) | ${ms(before.store.rejectsByAgent)} | ${ms(after.store.rejectsByAgent)} | ${(after.store.rejectsByAgent / before.store.rejectsByAgent).toFixed(2)}× |`,
    `| /health while both panels poll (p50 / p99) | ${ms(before.health.p50)} / ${ms(before.health.p99)} (n=${before.health.n}) | ${ms(after.health.p50)} / ${ms(after.health.p99)}${mark(after.health.p99)} (n=${after.health.n}) | ${(after.health.p99 / before.health.p99).toFixed(2)}× (p99) |`,
    '',
    `Aim: every read and the /health p99 under ${AIM_MS} ms after the flood (✗ marks a miss).`,
  ].join('\n'),
);
const flooded = `after ${FLOOD.toLocaleString('en-US')} rejects, ${PG ? 'PostgreSQL' : 'SQLite'}`;
printBenchResult('flood', [
  ...(Object.keys(READS) as Read[]).map((name) => ({
    metric: `${name} read median, ${flooded}`,
    value: after.reads[name].median,
    unit: 'ms',
    baseline: `${before.rejects} rejects`,
    baselineValue: before.reads[name].median,
    note: `p99 ${ms(after.reads[name].p99)} (aim < ${AIM_MS} ms)`,
  })),
  {
    metric: `/health p99 while both panels poll, ${flooded}`,
    value: after.health.p99,
    unit: 'ms',
    baseline: `${before.rejects} rejects`,
    baselineValue: before.health.p99,
  },
]);
