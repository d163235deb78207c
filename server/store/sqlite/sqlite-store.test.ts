// The Store contract against a real SQLite file in a temp dir, plus what only a file can show:
// data surviving close and reopen, idempotent migrations, and the pragmas the server relies on.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config';
import { openStore, sqliteFileFor } from '../open-store';
import { describeStoreContract } from '../store-suite';
import { MIGRATIONS, migrate, schemaVersion } from './migrations';
import { SqliteStore } from './sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'switchboard-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(root, `store-${++counter}`, 'switchboard.sqlite');

describeStoreContract('SQLite', async () => new SqliteStore({ file: freshFile() }));

describe('SQLite store file', () => {
  it('keeps every kind of record across close and reopen, and cursors keep increasing', async () => {
    const file = freshFile();
    const first = new SqliteStore({ file });
    await first.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'review', createdAt: 1 });
    const m1 = await first.rooms.appendMessage({
      roomId: 'r1',
      topic: 'rooms/r1/public',
      topicKind: 'public',
      topicAgentId: null,
      messageId: 'm1',
      type: 'chat',
      fromId: 'a',
      payload: Uint8Array.of(1, 2, 3),
      receivedAt: 10,
    });
    await first.rooms.putGrant({
      roomId: 'r1',
      agentId: 'a',
      taskId: 't',
      maxMessages: 2,
      allowedTypes: ['chat'],
      expiresAt: 100,
      grantedAt: 1,
      grantMessageId: 'g',
    });
    await first.rooms.spendGrant('r1', 'a', 't', 5);
    await first.access.putAgentCredential({ agentId: 'a', passwordHash: 'scrypt$x', createdAt: 1 });
    await first.access.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: 1 });
    await first.access.createSession('h', { did: 'did:key:zA', role: 'facilitator', expiresAt: 1000 });
    await first.access.appendAudit({
      at: 1,
      actorDid: 'did:key:zA',
      action: 'x',
      roomId: 'r1',
      messageId: null,
      details: {},
    });
    await first.close();
    await first.close(); // closing twice is harmless

    const second = new SqliteStore({ file });
    expect(await second.rooms.getRoom('r1')).toMatchObject({ moderation: 'review' });
    const { messages } = await second.rooms.listMessages({ roomId: 'r1', limit: 10 });
    expect(messages.map((m) => [...m.payload])).toEqual([[1, 2, 3]]);
    expect((await second.rooms.getGrant('r1', 'a', 't'))?.spent).toBe(1);
    expect(await second.access.getAgentCredential('a')).toBeDefined();
    expect(await second.access.getSession('h', 0)).toMatchObject({ did: 'did:key:zA' });
    expect(await second.access.listAudit({ limit: 10 })).toHaveLength(1);
    const m2 = await second.rooms.appendMessage({ ...messages[0]!, messageId: 'm2' });
    expect(m2.cursor).toBeGreaterThan(m1.cursor);
    await second.close();
  });

  it('applies migrations once: reopening applies nothing and keeps one row per version', async () => {
    const file = freshFile();
    await new SqliteStore({ file }).close();
    await new SqliteStore({ file }).close();
    const db = new Database(file);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(migrate(db)).toEqual([]);
    const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    db.close();
  });

  it('applies a new migration on top of an existing database, in order, in one transaction', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    const next = MIGRATIONS.length + 1;
    const broken = [
      ...MIGRATIONS,
      { version: next, name: 'broken', sql: 'CREATE TABLE extra (x INTEGER); SELECT * FROM missing_table;' },
    ];
    expect(() => migrate(db, broken)).toThrow(/missing_table/);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'extra'").get()).toEqual({ n: 0 });
    const good = [...MIGRATIONS, { version: next, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER)' }];
    expect(migrate(db, good)).toEqual([next]);
    expect(migrate(db, good)).toEqual([]);
    db.close();
  });

  it('refuses migrations numbered with a gap, and a database newer than the code', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [{ version: 2, name: 'x', sql: '' }])).toThrow(/without gaps/);
    migrate(db, [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'future', sql: 'SELECT 1' }]);
    expect(() => migrate(db)).toThrow(/newer than this Switchboard/);
    db.close();
  });

  it('runs in WAL mode and enforces foreign keys', async () => {
    const file = freshFile();
    const store = new SqliteStore({ file });
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // sessions.did references operators.did: a session for nobody is refused.
    await expect(
      store.access.createSession('h', { did: 'did:key:zNobody', role: 'observer', expiresAt: 10 }),
    ).rejects.toThrow(/FOREIGN KEY/);
    await store.close();
  });

  it('keeps room-wide rows out of the agent-topic index, and an agent filter still reads that index', async () => {
    const file = freshFile();
    const store = new SqliteStore({ file });
    const row = (n: number, agent: string | null) => ({
      roomId: 'r1',
      topic: agent ? `rooms/r1/agents/${agent}/heartbeat` : 'rooms/r1/public',
      topicKind: agent ? ('heartbeat' as const) : ('public' as const),
      topicAgentId: agent,
      messageId: `m${n}`,
      type: agent ? 'heartbeat' : 'result',
      fromId: agent ?? `writer-${n % 20}`,
      payload: Uint8Array.of(n % 256),
      receivedAt: n,
    });
    // 3,000 room-wide rows and 30 from one agent's topic, stored in ten commits of 303.
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 303 }, (_, i) => store.rooms.appendMessage(row(batch * 303 + i, i < 3 ? 'quiet' : null))),
      );
    }
    const page = await store.rooms.listMessages({ roomId: 'r1', agentId: 'quiet', limit: 100 });
    expect(page.messages).toHaveLength(30);
    expect(page.messages.every((m) => m.topicAgentId === 'quiet')).toBe(true);
    await store.close();
    const db = new Database(file);
    db.exec('ANALYZE');
    // sqlite_stat1's first figure is the number of entries: only the agent's own rows.
    expect(db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'room_messages_by_topic_agent'").get()).toEqual({
      stat: expect.stringMatching(/^30 /),
    });
    // listMessages' agent filter (sqlite-room-store.ts): both sides of its OR read an index.
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT * FROM room_messages WHERE room_id = ? AND (from_id = ? OR topic_agent_id = ?) ORDER BY cursor DESC LIMIT 101',
      )
      .all('r1', 'quiet', 'quiet') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(
      /USING INDEX room_messages_by_topic_agent \(room_id=\? AND topic_agent_id=\?\)/,
    );
    db.close();
  });

  it('shares one file between two open stores (server and CLI)', async () => {
    const file = freshFile();
    const server = new SqliteStore({ file });
    const cli = new SqliteStore({ file });
    await cli.access.putAgentCredential({ agentId: 'bot', passwordHash: 'scrypt$x', createdAt: 1 });
    expect(await server.access.getAgentCredential('bot')).toBeDefined();
    await server.rooms.putGrant({
      roomId: 'r',
      agentId: 'a',
      taskId: 't',
      maxMessages: 3,
      allowedTypes: [],
      expiresAt: 100,
      grantedAt: 1,
      grantMessageId: 'g',
    });
    const spends = await Promise.all(
      [1, 2, 3, 4].flatMap(() => [server.rooms.spendGrant('r', 'a', 't', 1), cli.rooms.spendGrant('r', 'a', 't', 1)]),
    );
    expect(spends.filter((s) => s.ok)).toHaveLength(3);
    await server.close();
    await cli.close();
  });
});

describe('openStore', () => {
  it('opens SQLite under DATA_DIR, creating the directory', async () => {
    const dataDir = join(root, 'nested', 'data');
    const store = await openStore({ dataDir, databaseUrl: undefined });
    await store.access.putOperator({ did: 'did:key:zA', role: 'observer', createdAt: 1 });
    await store.close();
    const db = new Database(sqliteFileFor(dataDir), { readonly: true });
    expect(db.prepare('SELECT did FROM operators').all()).toEqual([{ did: 'did:key:zA' }]);
    db.close();
  });

  it('with DATABASE_URL set never opens SQLite: a malformed URL is a ConfigError naming it, and DATA_DIR stays empty', async () => {
    // PostgreSQL itself is exercised in pg/pg-store.test.ts; here only the choice of engine.
    const dataDir = join(root, 'unused');
    await expect(openStore({ dataDir, databaseUrl: 'sqlite://switchboard' })).rejects.toThrow(ConfigError);
    await expect(openStore({ dataDir, databaseUrl: 'sqlite://switchboard' })).rejects.toThrow(
      /^DATABASE_URL must be a postgres:\/\/ URL/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('turns a file it cannot open into a one-line ConfigError', async () => {
    // A directory where the database file should be.
    const dataDir = join(root, 'blocked');
    mkdirSync(sqliteFileFor(dataDir), { recursive: true });
    await expect(openStore({ dataDir, databaseUrl: undefined })).rejects.toThrow(
      /^cannot open the database .* \(DATA_DIR\): /,
    );
  });
});
