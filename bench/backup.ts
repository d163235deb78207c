// Backup benchmark (npx tsx bench/backup.ts; `npm run bench:backup`).
//
// Seeds a fresh store through the store API with BACKUP_MESSAGES (100,000) room messages of about
// 300 bytes (an AOR result envelope), closes it, then times what `npm run cli -- backup` runs
// (backupSqlite: SQLite's online backup in one step, its copy opened, checked and counted, linked
// into place) against SQLite's own online backup of the same file alone (better-sqlite3's
// db.backup(), in one step too), in the same run, BACKUP_RUNS (3) times each, interleaved. Both
// copies are written by SQLite's backup into a destination it commits with its default
// synchronous = FULL, so both are fsynced alike; the ratio is what backupSqlite adds around it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { backupSqlite } from '../server/cli/sqlite-backup';
import { failBench, printBenchResult } from './bench-result';
import { openSqliteStore } from '../server/store/sqlite/sqlite-store';

const MESSAGES = Number(process.env.BACKUP_MESSAGES ?? 100_000);
const RUNS = Number(process.env.BACKUP_RUNS ?? 3);
const BATCH = 1_000;

const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-backup-'));
const file = join(dir, 'switchboard.sqlite');

async function seed(): Promise<void> {
  const store = openSqliteStore({ file });
  await store.rooms.ensureRoom({ id: 'r1', name: 'Bench room', moderation: 'auto' });
  const now = Date.now();
  for (let start = 0; start < MESSAGES; start += BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(BATCH, MESSAGES - start) }, (_, j) => {
        const i = start + j;
        const envelope = {
          id: `m_${i}`,
          type: 'result',
          room_id: 'r1',
          from: { kind: 'agent', id: `agent.bench${i % 13}` },
          ts: Math.floor(now / 1000),
          payload: { task_id: `t${i % 50}`, message_type: 'progress', content: { text: `step ${i} `.repeat(12) } },
        };
        return store.rooms.appendMessage({
          roomId: 'r1',
          topic: 'rooms/r1/public',
          topicKind: 'public',
          topicAgentId: null,
          messageId: envelope.id,
          type: envelope.type,
          fromId: envelope.from.id,
          payload: new TextEncoder().encode(JSON.stringify(envelope)),
          receivedAt: now + i,
        });
      }),
    );
  }
  await store.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const seeded = performance.now();
  await seed();
  console.log(
    `seeded ${MESSAGES} messages in ${Math.round(performance.now() - seeded)} ms; ` +
      `database ${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB`,
  );
  const backups: number[] = [];
  const plain: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const target = join(dir, `backup-${run}.sqlite`);
    const started = performance.now();
    const result = await backupSqlite(file, target, { force: false, now: () => Date.now() });
    backups.push(performance.now() - started);
    if (result.messages !== MESSAGES) throw new Error(`the backup holds ${result.messages} messages`);
    const plainTarget = join(dir, `sqlite-backup-${run}.sqlite`);
    const plainStarted = performance.now();
    const db = new Database(file, { fileMustExist: true });
    try {
      await db.backup(plainTarget, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    plain.push(performance.now() - plainStarted);
    rmSync(target);
    rmSync(plainTarget);
  }
  const b = median(backups);
  const s = median(plain);
  console.log(
    `backup (median of ${RUNS}): ${b.toFixed(0)} ms; SQLite's online backup alone: ${s.toFixed(0)} ms; ratio ${(b / s).toFixed(2)}×`,
  );
  console.log(`all backups: ${backups.map((x) => x.toFixed(0)).join(', ')} ms`);
  console.log(`all SQLite backups: ${plain.map((x) => x.toFixed(0)).join(', ')} ms`);
  printBenchResult('backup', [
    {
      metric: `npm run cli -- backup, ${MESSAGES.toLocaleString('en-US')} messages`,
      value: b,
      unit: 'ms',
      baseline: "SQLite's online backup (db.backup)",
      baselineValue: s,
    },
  ]);
} catch (error) {
  rmSync(dir, { recursive: true, force: true });
  failBench('backup', error);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
