// Group commit on a real SQLite file: one transaction per turn, in submit order, a failing piece
// failing alone, and no lock left open for another connection of the same process to wait on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { SqliteStore } from './sqlite-store';

let dir: string;
let db: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-group-commit-'));
  db = new Database(join(dir, 'g.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT NOT NULL)');
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteGroupCommit', () => {
  it('runs pieces submitted in one turn in one transaction, in submit order, each resolving after the commit', async () => {
    const commits = new SqliteGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (n, v) VALUES (?, ?) RETURNING n');
    const seenInTransaction: boolean[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        commits.submit(() => {
          seenInTransaction.push(db.inTransaction);
          return (insert.get(i, `v${i}`) as { n: number }).n;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(seenInTransaction.every(Boolean)).toBe(true);
    expect(db.inTransaction).toBe(false);
    // A second connection sees all of them: they were committed before anyone's promise resolved.
    const other = new Database(join(dir, 'g.sqlite'), { readonly: true });
    expect((other.prepare('SELECT count(*) AS c FROM t').get() as { c: number }).c).toBe(20);
    other.close();
  });

  it('shares one BEGIN…COMMIT between the pieces of a turn', async () => {
    const commits = new SqliteGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (n, v) VALUES (?, ?)');
    // Each piece reads the transaction's own uncommitted rows: all 10 are in the same transaction.
    const counts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        commits.submit(
          () => (insert.run(i, 'x'), (db.prepare('SELECT count(*) AS c FROM t').get() as { c: number }).c),
        ),
      ),
    );
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('fails only the piece that throws; the others are committed', async () => {
    const commits = new SqliteGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (n, v) VALUES (?, ?)');
    const outcomes = await Promise.allSettled([
      commits.submit(() => insert.run(1, 'a')),
      commits.submit(() => insert.run(1, 'duplicate key')),
      commits.submit(() => insert.run(2, 'b')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT n, v FROM t ORDER BY n').all()).toEqual([
      { n: 1, v: 'a' },
      { n: 2, v: 'b' },
    ]);
  });

  it('leaves no lock open between turns: a second store on the same file writes at once', async () => {
    const file = join(dir, 'store.sqlite');
    const server = new SqliteStore({ file });
    const cli = new SqliteStore({ file, busyTimeoutMs: 50 });
    try {
      await server.rooms.ensureRoom({ id: 'r1', name: 'R', moderation: 'auto' });
      const row = {
        roomId: 'r1',
        topic: 'rooms/r1/public',
        topicKind: 'public' as const,
        topicAgentId: null,
        messageId: null,
        type: null,
        fromId: null,
        payload: Uint8Array.of(1),
        receivedAt: 1,
      };
      // The server's append is queued for the next turn; the CLI's write must not wait on it.
      const pending = server.rooms.appendMessage(row);
      await cli.access.putAgentCredential({ agentId: 'agent-a', passwordHash: 'h', createdAt: 1 });
      await pending;
      expect(await server.access.getAgentCredential('agent-a')).toBeDefined();
      expect((await cli.rooms.listMessages({ roomId: 'r1', limit: 10 })).messages).toHaveLength(1);
    } finally {
      await cli.close();
      await server.close();
    }
  });
});
