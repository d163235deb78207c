// Room health benchmark (npx tsx bench/health.ts; `npm run bench:health`).
//
// The queries behind GET /api/rooms/{id}/health (RoomStore.roomActivity and rejectsByAgent,
// decisions-server.md §64) on a room of 100,000 stored messages, of which about 3,000 arrived in
// the last hour, plus a second room of 10,000, on SQLite and on PostgreSQL (a fresh database at
// TEST_DATABASE_URL, default the local server's `test`). The baseline is what opening a room
// already costs: the newest page of 100 messages (listMessages). Each figure is the median of
// RUNS calls after a warm-up; the ratio is health / baseline.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openPgStore } from '../server/store/pg/pg-store';
import { healthWindow } from '../server/rooms/room-health';
import { openSqliteStore } from '../server/store/sqlite/sqlite-store';
import type { NewRoomMessage, Store } from '../server/store/store';
import { printBenchResult, type BenchFigure } from './bench-result';

const ROOM = 'bench';
const OTHER = 'bench-other';
const STORED = 100_000;
const RECENT = 3_000;
const OTHER_STORED = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const REASONS = ['no_mic_grant', 'message_type_not_allowed', 'message_limit_exceeded', 'sender_mismatch'];
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const encoder = new TextEncoder();
const NOW = Date.now();

/**
 * The room's i-th message, in triples: a candidate, then its approved copy or (one in four) the
 * gateway's reject on control, then a heartbeat. Old ones are spread over the day before.
 */
function messageAt(roomId: string, i: number, total: number, recent: number): NewRoomMessage {
  const old = total - recent;
  const receivedAt = i < old ? NOW - 2 * 3_600_000 - (old - i) * 900 : NOW - (total - i) * 1_000;
  const triple = Math.floor(i / 3);
  const agentId = `agent.${triple % 7}`;
  const candidateId = `${roomId}_cand_${triple}`;
  const base = { roomId, topicAgentId: null, receivedAt, fromId: agentId };
  const body = (envelope: unknown) => encoder.encode(JSON.stringify(envelope));
  switch (i % 3) {
    case 0:
      return {
        ...base,
        topic: `rooms/${roomId}/public_candidates`,
        topicKind: 'public_candidates',
        topicAgentId: agentId,
        messageId: candidateId,
        type: 'result',
        payload: body({ id: candidateId, type: 'result', payload: { text: 'lorem ipsum '.repeat(6) } }),
      };
    case 1:
      if (triple % 4 === 0) {
        const id = `${roomId}_rej_${triple}`;
        return {
          ...base,
          topic: `rooms/${roomId}/control`,
          topicKind: 'control',
          messageId: id,
          type: 'reject',
          fromId: 'gateway',
          payload: body({
            id,
            type: 'reject',
            payload: { reason: REASONS[triple % REASONS.length], message_id: candidateId },
          }),
        };
      }
      return {
        ...base,
        topic: `rooms/${roomId}/public`,
        topicKind: 'public',
        messageId: candidateId,
        type: 'result',
        payload: body({ id: candidateId, type: 'result', payload: { text: 'lorem ipsum '.repeat(6) } }),
      };
    default:
      return {
        ...base,
        topic: `rooms/${roomId}/heartbeat/${agentId}`,
        topicKind: 'heartbeat',
        topicAgentId: agentId,
        messageId: `${roomId}_hb_${i}`,
        type: 'heartbeat',
        payload: body({ id: `${roomId}_hb_${i}`, type: 'heartbeat' }),
      };
  }
}

async function seed(store: Store): Promise<void> {
  for (const [roomId, total] of [
    [ROOM, STORED],
    [OTHER, OTHER_STORED],
  ] as const) {
    await store.rooms.ensureRoom({ id: roomId, name: roomId, moderation: 'auto' });
    const recent = roomId === ROOM ? RECENT : RECENT / 10;
    // A thousand at a time: the group commit writes each batch in a few transactions.
    for (let i = 0; i < total; i += 1_000)
      await Promise.all(
        Array.from({ length: Math.min(1_000, total - i) }, (_, k) =>
          store.rooms.appendMessage(messageAt(roomId, i + k, total, recent)),
        ),
      );
  }
}

async function median(work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function measure(engine: string, store: Store): Promise<string[]> {
  const t0 = performance.now();
  await seed(store);
  const seeded = (performance.now() - t0) / 1000;
  const { since, now } = healthWindow(NOW);
  const activity = await store.rooms.roomActivity(ROOM, since, now);
  const inWindow = activity.perMinute.reduce((sum, m) => sum + m.messages, 0);
  const baseline = await median(() => store.rooms.listMessages({ roomId: ROOM, limit: 100 }));
  const roomActivity = await median(() => store.rooms.roomActivity(ROOM, since, now));
  const inRoom = await median(() => store.rooms.rejectsByAgent(since, ROOM));
  const everyRoom = await median(() => store.rooms.rejectsByAgent(since));
  // As the route asks: the three at once (plus the pending review items, none here).
  const health = await median(() =>
    Promise.all([
      store.rooms.roomActivity(ROOM, since, now),
      store.rooms.listReviewItems(ROOM, 'pending'),
      store.rooms.rejectsByAgent(since, ROOM),
    ]),
  );
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  figures.push({
    metric: `room health queries, ${engine}, ${STORED.toLocaleString('en-US')} messages`,
    value: health,
    unit: 'ms',
    baseline: 'newest page of 100',
    baselineValue: baseline,
  });
  return [
    `| ${engine} | ${inWindow} of ${STORED} (seeded in ${seeded.toFixed(0)} s) | ${ms(baseline)} | ${ms(roomActivity)} | ${ms(inRoom)} | ${ms(everyRoom)} | ${ms(health)} | ${(health / baseline).toFixed(1)}× |`,
  ];
}

const rows: string[] = [];
const figures: BenchFigure[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-health-'));
try {
  const sqlite = openSqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  rows.push(...(await measure('SQLite', sqlite)));
  await sqlite.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const database = `sb_bench_${randomBytes(4).toString('hex')}`;
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
try {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const pg = await openPgStore({ url: url.toString() });
  try {
    rows.push(...(await measure('PostgreSQL', pg)));
  } finally {
    await pg.close();
  }
} finally {
  await pgAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}

console.log(
  [
    `Room health at ${STORED.toLocaleString('en')} messages (median of ${RUNS}):`,
    '',
    '| engine | messages in the window | baseline: newest page of 100 | roomActivity | rejectsByAgent (room) | rejectsByAgent (every room) | health, as the route asks | ratio |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n'),
);
printBenchResult('health', figures);
