// `backup` and `restore` as an operator runs them: the compiled CLI against the compiled server's
// DATA_DIR while agents publish over real MQTT, then a restore into a fresh DATA_DIR that a new
// server starts on. Every message a subscriber saw on `public` before the backup began, the
// grant's spend for it and the transparency-log entries must come back; the refusals leave
// everything as it was.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { hashPassword } from '../auth/password';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { SERVER_CLI } from '../test-support/compiled-entry';
import { connectClient } from '../test-support/mqtt-clients';
import { killed, startServerProcess, stopped, type ServerProcess } from '../test-support/server-process';
import { sessionCookie } from '../test-support/sessions';

const root = mkdtempSync(join(tmpdir(), 'switchboard-backup-'));
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await killed(s.child);
  rmSync(root, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(dataDir: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [...SERVER_CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function start(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess({ DATA_DIR: dataDir });
  servers.push(server);
  return server;
}

/** Buyer and seller over the server's real HTTP API; every accepted negotiation is a transparency-log entry. */
function negotiators(baseUrl: string): { settle: () => Promise<number | undefined> } {
  const rng = mulberry32(7);
  const party = (key: string) =>
    new NegotiationParty(
      negotiationIdentity(1, key, key),
      (input, init) => fetch(input, init),
      baseUrl,
      () => Date.now(),
      seededBytes(rng),
    );
  const buyer = party('buyer');
  const seller = party('seller');
  return {
    async settle() {
      const id = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
      await buyer.propose(id, { price: 1 }, 600_000);
      return (await seller.accept(id)).log_entry?.index;
    },
  };
}

async function publicIds(store: SqliteStore): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor = 0;
  for (;;) {
    const page = await store.rooms.listMessages({ roomId: 'r1', limit: 500, topicKinds: ['public'], after: cursor });
    for (const m of page.messages) if (m.messageId) ids.add(m.messageId);
    if (!page.hasMore) return ids;
    cursor = page.messages.at(-1)?.cursor ?? cursor;
  }
}

describe('backup under load, restore into a fresh DATA_DIR', () => {
  it('brings back every message seen on public and every grant spend from before the backup began', async () => {
    const liveDir = join(root, 'live');
    const file = join(liveDir, 'switchboard.sqlite');
    const server = await start(liveDir);
    const setup = new SqliteStore({ file });
    await setup.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'auto' });
    await setup.access.putAgentCredential({
      agentId: 'agent.writer',
      passwordHash: await hashPassword('pw'),
      createdAt: Date.now(),
    });
    const cookie = await sessionCookie(setup, FACILITATOR, 'facilitator');
    await setup.close();

    const facilitator = await connectClient(server.url.replace('http', 'ws') + '/mqtt', {
      wsOptions: { headers: { cookie, origin: server.url } },
    });
    facilitator.client.on('error', () => undefined);
    await facilitator.client.subscribeAsync('rooms/r1/public', { qos: 1 });
    const now = Math.floor(Date.now() / 1000);
    await facilitator.client.publishAsync(
      'rooms/r1/control',
      JSON.stringify({
        id: 'grant_1',
        type: 'mic_grant',
        room_id: 'r1',
        from: { kind: 'user', id: FACILITATOR },
        ts: now,
        payload: {
          task_id: 't1',
          agent_id: 'agent.writer',
          max_messages: 10_000,
          allowed_message_types: ['progress'],
          expires_at: now + 3600,
        },
      }),
      { qos: 1 },
    );

    const seen = new Set<string>();
    const waiters: { count: number; resolve: () => void }[] = [];
    facilitator.client.on('message', (_topic, payload) => {
      seen.add((JSON.parse(payload.toString()) as { id: string }).id);
      for (const w of waiters.filter((w) => seen.size >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
    const seenAtLeast = (count: number) =>
      new Promise<void>((resolve) => (seen.size >= count ? resolve() : waiters.push({ count, resolve })));

    const agent = await connectClient(server.mqttUrl, { username: 'agent.writer', password: 'pw' });
    agent.client.on('error', () => undefined);
    let sent = 0;
    const pump = setInterval(() => {
      for (let i = 0; i < 20 && agent.client.connected && sent - seen.size < 300; i++) {
        const id = `c_${++sent}`;
        agent.client.publish(
          'rooms/r1/public_candidates',
          JSON.stringify({
            id,
            type: 'result',
            room_id: 'r1',
            from: { kind: 'agent', id: 'agent.writer' },
            ts: now,
            payload: { task_id: 't1', message_type: 'progress', content: { text: `step ${sent}` } },
          }),
          { qos: 1 },
        );
      }
    }, 2);

    const deals = negotiators(server.url);
    try {
      for (let i = 0; i < 4; i++) expect(await deals.settle()).toBe(i);
      await seenAtLeast(200);
      const seenBeforeBackup = new Set(seen);
      const reader = new SqliteStore({ file });
      const logBeforeBackup = await reader.negotiations.logFrom(0);
      await reader.close();
      expect(logBeforeBackup).toHaveLength(4);
      // More log entries while the backup runs.
      const during = Promise.all([deals.settle(), deals.settle()]);
      const backupFile = join(root, 'under-load.sqlite');
      const backup = await cli(liveDir, ['backup', backupFile, '--json']);
      expect(backup).toMatchObject({ code: 0, stderr: '' });
      const summary = JSON.parse(backup.stdout) as { file: string; messages: number; rooms: number };
      expect(summary).toMatchObject({ file: backupFile, rooms: 1 });
      expect(summary.messages).toBeGreaterThanOrEqual(seenBeforeBackup.size);
      await during;
      // The server kept taking traffic after the backup.
      await seenAtLeast(seen.size + 50);

      // A second backup to the same name is refused and leaves the first as it was.
      const again = await cli(liveDir, ['backup', backupFile]);
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toMatch(/^switchboard: BACKUP_EXISTS: [^\n]*--force[^\n]*\n$/);

      // Restore on the running server's DATA_DIR: refused, nothing renamed.
      const whileRunning = await cli(liveDir, ['restore', backupFile]);
      expect(whileRunning).toMatchObject({ code: 1, stdout: '' });
      expect(whileRunning.stderr).toMatch(/^switchboard: SERVER_RUNNING: [^\n]*stop the server[^\n]*\n$/);
      expect(readdirSync(liveDir).filter((name) => name.includes('before-restore'))).toEqual([]);
      expect(existsSync(file)).toBe(true);

      clearInterval(pump);
      agent.client.end(true);
      facilitator.client.end(true);
      await stopped(server, 'SIGTERM');

      const freshDir = join(root, 'fresh');
      const restored = await cli(freshDir, ['restore', backupFile, '--json']);
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(restored.stdout)).toMatchObject({ messages: summary.messages, keptAside: [] });

      await start(freshDir);
      const after = new SqliteStore({ file: join(freshDir, 'switchboard.sqlite') });
      try {
        const stored = await publicIds(after);
        expect([...seenBeforeBackup].filter((id) => !stored.has(id))).toEqual([]);
        // Every approval in the copy spent exactly one message, and none is missing from it.
        expect((await after.rooms.getGrant('r1', 'agent.writer', 't1'))?.spent).toBe(stored.size);
        // The transparency log as it stood before the backup, entry for entry, hashes included.
        expect((await after.negotiations.logFrom(0)).slice(0, logBeforeBackup.length)).toEqual(logBeforeBackup);
        // Operators (and their sessions) come back as they were at the backup.
        expect(await after.access.getOperator(FACILITATOR)).toMatchObject({ role: 'facilitator' });
      } finally {
        await after.close();
      }
    } finally {
      clearInterval(pump);
      agent.client.end(true);
      facilitator.client.end(true);
    }
  }, 120_000);
});

describe('restore refusals on a stopped server', () => {
  async function stoppedDataDir(name: string): Promise<{ dir: string; backup: string }> {
    const dir = join(root, name);
    expect(await cli(dir, ['agents', 'add', 'keeper'])).toMatchObject({ code: 0 });
    const backup = join(root, `${name}.sqlite`);
    expect(await cli(dir, ['backup', backup])).toMatchObject({ code: 0 });
    return { dir, backup };
  }

  const agentsIn = async (dir: string) =>
    (JSON.parse((await cli(dir, ['agents', 'list', '--json'])).stdout) as { agentId: string }[]).map((a) => a.agentId);

  it('refuses a file that is not SQLite, and a SQLite file without Switchboard schema, changing nothing', async () => {
    const { dir } = await stoppedDataDir('not-switchboard');
    const text = join(root, 'notes.txt');
    writeFileSync(text, 'not a database\n'.repeat(100));
    const plain = join(root, 'other.sqlite');
    const other = new Database(plain);
    other.exec('CREATE TABLE t (x INTEGER)');
    other.close();

    for (const candidate of [text, plain]) {
      const run = await cli(dir, ['restore', candidate]);
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toMatch(/^switchboard: NOT_A_SWITCHBOARD_DATABASE: [^\n]*\n$/);
    }
    expect(readdirSync(dir).filter((n) => !n.endsWith('-wal') && !n.endsWith('-shm'))).toEqual(['switchboard.sqlite']);
    expect(await agentsIn(dir)).toEqual(['keeper']);
  });

  it('refuses a damaged backup (its table pages overwritten) as CORRUPT_BACKUP', async () => {
    const { dir, backup } = await stoppedDataDir('damaged');
    const damaged = join(root, 'damaged-copy.sqlite');
    copyFileSync(backup, damaged);
    const bytes = readFileSync(damaged);
    // Every page after the first two (the header page and sqlite_master's root) with garbage:
    // the tables' b-trees no longer parse.
    bytes.fill(0xa5, 2 * 4096);
    writeFileSync(damaged, bytes);
    const run = await cli(dir, ['restore', damaged]);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^switchboard: CORRUPT_BACKUP: [^\n]*\n$/);
    expect(await agentsIn(dir)).toEqual(['keeper']);
  });

  it('refuses a backup whose schema is newer than this build', async () => {
    const { dir, backup } = await stoppedDataDir('too-new');
    const future = join(root, 'future.sqlite');
    copyFileSync(backup, future);
    const db = new Database(future);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, 0)').run('from the future');
    db.close();
    const run = await cli(dir, ['restore', future]);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^switchboard: SCHEMA_TOO_NEW: [^\n]*version 999[^\n]*\n$/);
    expect(await agentsIn(dir)).toEqual(['keeper']);
  });

  it('keeps the replaced database (and its WAL) as <name>.before-restore-<time> beside the restored one', async () => {
    const { dir, backup } = await stoppedDataDir('keeps');
    expect(await cli(dir, ['agents', 'add', 'after-backup'])).toMatchObject({ code: 0 });
    const run = await cli(dir, ['restore', backup], {});
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(await agentsIn(dir)).toEqual(['keeper']);
    const aside = readdirSync(dir).filter((n) => /^switchboard\.sqlite\.before-restore-\d{8}T\d{9}Z$/.test(n));
    expect(aside).toHaveLength(1);
    const asideDir = join(root, 'keeps-aside');
    mkdirSync(asideDir);
    copyFileSync(join(dir, aside[0]!), join(asideDir, 'switchboard.sqlite'));
    expect(await agentsIn(asideDir)).toEqual(['after-backup', 'keeper']);
  });

  it('with DATABASE_URL refuses both verbs, pointing at pg_dump in docs/deploy.md', async () => {
    const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };
    for (const verb of ['backup', 'restore']) {
      const run = await cli(join(root, 'pg'), [verb, join(root, 'pg.sqlite')], env);
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toMatch(/^switchboard: POSTGRES_NOT_SUPPORTED: [^\n]*pg_dump[^\n]*docs\/deploy\.md[^\n]*\n$/);
    }
    expect(existsSync(join(root, 'pg'))).toBe(false);
  });
});
