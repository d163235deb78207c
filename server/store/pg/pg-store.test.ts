// The Store contract against the PostgreSQL on this machine (a fresh database for this file),
// plus what only PostgreSQL shows: migrations applied once by instances starting together, a
// database newer than the code refused, and two stores on one database waking each other's
// long-polls through LISTEN/NOTIFY.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config';
import { usePgDatabase } from '../../test-support/pg-database';
import { openStore } from '../open-store';
import { describeStoreContract } from '../store-suite';
import type { NewRelayEnvelope, ThreadDecision } from '../relay-store';
import { migratePg, PG_MIGRATIONS, pgSchemaVersion } from './pg-migrations';
import { createPgPool } from './pg-pool';
import { openPgStore, type PgStore } from './pg-store';

const db = usePgDatabase();
const unmigrated = usePgDatabase();

describeStoreContract('PostgreSQL', async () => {
  await db.reset();
  return openPgStore({ url: await db.url() });
});

const T0 = 1_760_000_000_000;
const envelope = (id: string): NewRelayEnvelope => ({
  id,
  kind: 'event',
  digest: `d-${id}`,
  type: 'REQUEST',
  sender: 'did:key:zClient',
  recipient: 'did:key:zAgent',
  threadId: `t-${id}`,
  ts: T0,
  receivedAt: T0,
  expiresAt: T0 + 60_000,
  json: JSON.stringify({ id }),
});
const open: ThreadDecision = (thread) => ({
  ok: true,
  value: { state: { status: 'OPEN', threadId: thread?.threadId ?? 'x' } as never, deadlineAt: null },
});

describe('PostgreSQL store', () => {
  const opened: PgStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  const store = async () => {
    const s = await openPgStore({ url: await db.url() });
    opened.push(s);
    return s;
  };

  it('applies each migration once when several instances start at the same moment', async () => {
    // A database of its own, never migrated: the four race for the first application.
    const pools = await Promise.all(
      Array.from({ length: 4 }, async () => createPgPool({ url: await unmigrated.url(), max: 2 })),
    );
    try {
      const applied = await Promise.all(pools.map((pool) => migratePg(pool)));
      expect(applied.flat().sort((x, y) => x - y)).toEqual(PG_MIGRATIONS.map((m) => m.version));
      expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);
      const { rows } = await pools[0]!.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('rolls a failing migration back whole, then applies a good one on top; refuses gaps', async () => {
    const pool = createPgPool({ url: await db.url(), max: 1 });
    try {
      await migratePg(pool);
      const next = PG_MIGRATIONS.length + 1;
      const broken = [
        ...PG_MIGRATIONS,
        { version: next, name: 'broken', sql: 'CREATE TABLE extra_broken (x INT); SELECT * FROM missing_table;' },
      ];
      await expect(migratePg(pool, broken)).rejects.toThrow(/missing_table/);
      expect(await pgSchemaVersion(pool)).toBe(PG_MIGRATIONS.length);
      const { rows } = await pool.query(`SELECT to_regclass('extra_broken') AS t`);
      expect(rows[0]).toEqual({ t: null });
      await expect(migratePg(pool, [{ version: 2, name: 'x', sql: '' }])).rejects.toThrow(/without gaps/);
    } finally {
      await pool.end();
    }
  });

  it('refuses a database newer than the code, in one line naming DATABASE_URL', async () => {
    const pool = createPgPool({ url: await db.url(), max: 1 });
    const future = PG_MIGRATIONS.length + 1;
    try {
      await migratePg(pool, [...PG_MIGRATIONS, { version: future, name: 'from the future', sql: 'SELECT 1' }]);
      const refused = openStore({ dataDir: '/nonexistent', databaseUrl: await db.url() });
      await expect(refused).rejects.toThrow(ConfigError);
      await expect(refused).rejects.toThrow(
        /^cannot open the PostgreSQL database \S+ \(DATABASE_URL\): the database has schema version \d+, newer than this Switchboard knows \(\d+\); upgrade Switchboard$/,
      );
    } finally {
      await pool.query('DELETE FROM schema_migrations WHERE version = $1', [future]);
      await pool.end();
    }
  });

  it('turns an unreachable server or a malformed URL into a one-line ConfigError naming DATABASE_URL, without the password', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const unreachable = openStore({
      dataDir: '/nonexistent',
      databaseUrl: 'postgres://sb:secret-pw@127.0.0.1:1/switchboard',
    });
    await expect(unreachable).rejects.toThrow(ConfigError);
    const message = await unreachable.catch((error: Error) => error.message);
    expect(message).toMatch(
      /^cannot open the PostgreSQL database postgres:\/\/sb:\*\*\*@127\.0\.0\.1:1\/switchboard \(DATABASE_URL\): .*ECONNREFUSED/,
    );
    expect(message).not.toContain('secret-pw');
    expect(message).not.toContain('\n');
    await expect(openStore({ dataDir: '/x', databaseUrl: 'not a url' })).rejects.toThrow(
      /^DATABASE_URL must be a postgres:\/\/ URL/,
    );
    await expect(openStore({ dataDir: '/x', databaseUrl: 'mysql://h/db' })).rejects.toThrow(
      /^DATABASE_URL must be a postgres:\/\/ URL, got a mysql:/,
    );
  });

  it('wakes a head watcher on one store for an append committed through another (LISTEN/NOTIFY)', async () => {
    await db.reset();
    const [a, b] = [await store(), await store()];
    const heads: number[] = [];
    let woke: (head: number) => void = () => undefined;
    const first = new Promise<number>((resolve) => (woke = resolve));
    // The listener reports the head once it is connected: wait for that, then append.
    let connected: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (connected = resolve));
    const stop = b.relay.watchHead!((head) => {
      heads.push(head);
      if (heads.length === 1) connected();
      else woke(head);
    });
    await ready;
    const stored = await a.relay.appendEvent(envelope('e1'), open);
    expect(stored.outcome).toBe('stored');
    const seq = stored.outcome === 'stored' ? stored.envelope.seq : -1;
    expect(await first).toBe(seq);
    stop();
  });

  it('reconnects a head listener whose connection was killed, and reports the head it missed meanwhile', async () => {
    await db.reset();
    const [a, b] = [await store(), await store()];
    const heads: number[] = [];
    const waiters: { atLeast: number; resolve: () => void }[] = [];
    const reached = (atLeast: number) => new Promise<void>((resolve) => waiters.push({ atLeast, resolve }));
    const stop = b.relay.watchHead!((head) => {
      heads.push(head);
      for (const w of waiters) if (head >= w.atLeast) w.resolve();
    });
    await reached(0); // connected: the first report is the head
    const admin = createPgPool({ url: await db.url(), max: 1 });
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'switchboard-listen-relay-head'`,
      );
      expect(killed.rows).toEqual([{ ok: true }]);
      // Stored while b hears nothing: only the reconnection's head report can tell it.
      const stored = await a.relay.appendEvent(envelope('while-away'), open);
      const seq = stored.outcome === 'stored' ? stored.envelope.seq : -1;
      await reached(seq);
      expect(heads.at(-1)).toBe(seq);
    } finally {
      stop();
      await admin.end();
    }
  });

  it("does not report a store's own appends to its own watcher (its feed published them)", async () => {
    await db.reset();
    const [a, b] = [await store(), await store()];
    const seenByA: number[] = [];
    const seenByB: number[] = [];
    let readyA: () => void = () => undefined;
    let readyB: () => void = () => undefined;
    const both = Promise.all([new Promise<void>((r) => (readyA = r)), new Promise<void>((r) => (readyB = r))]);
    let bSawSecond: () => void = () => undefined;
    const secondSeen = new Promise<void>((r) => (bSawSecond = r));
    const stopA = a.relay.watchHead!((h) => (seenByA.push(h), readyA()));
    const stopB = b.relay.watchHead!((h) => {
      seenByB.push(h);
      readyB();
      if (seenByB.length === 3) bSawSecond();
    });
    await both;
    await a.relay.appendEvent(envelope('own-1'), open);
    await a.relay.appendEvent(envelope('own-2'), open);
    await secondSeen; // b heard both; notifications arrive in commit order on every connection
    expect(seenByB).toEqual([0, 1, 2]);
    expect(seenByA).toEqual([0]);
    stopA();
    stopB();
  });

  it('orders seqs and cursors across two stores appending at once: every seq and cursor once, no gaps', async () => {
    await db.reset();
    const [a, b] = [await store(), await store()];
    const appends = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).relay.appendEvent(envelope(`c${i}`), open));
    const outcomes = await Promise.all(appends);
    const seqs = outcomes.map((o) => (o.outcome === 'stored' ? o.envelope.seq : -1)).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const message = (n: number) => ({
      roomId: 'r',
      topic: 'rooms/r/public',
      topicKind: 'public' as const,
      topicAgentId: null,
      messageId: `m${n}`,
      type: 'chat',
      fromId: 'x',
      payload: Uint8Array.of(n),
      receivedAt: T0 + n,
    });
    const cursors = (
      await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 ? a : b).rooms.appendMessage(message(n))))
    ).map((m) => m.cursor);
    expect(cursors.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await a.rooms.listRooms())[0]).toMatchObject({ id: 'r', messageCount: 40 });
  });

  it('a reader following the head sees seqs and cursors become visible in order, never a gap', async () => {
    await db.reset();
    const [a, b, reader] = [await store(), await store(), await store()];
    let writing = true;
    const gaps: string[] = [];
    let lastSeq = 0;
    let lastCursor = 0;
    const follow = async () => {
      for (;;) {
        const stillWriting = writing;
        const page = await reader.relay.listEvents({ afterSeq: lastSeq, limit: 1000 });
        for (const e of page.events) {
          if (e.seq !== lastSeq + 1) gaps.push(`seq ${e.seq} after ${lastSeq}`);
          lastSeq = e.seq;
        }
        const history = await reader.rooms.listMessages({ roomId: 'follow', after: lastCursor, limit: 1000 });
        for (const m of history.messages) {
          if (m.cursor !== lastCursor + 1) gaps.push(`cursor ${m.cursor} after ${lastCursor}`);
          lastCursor = m.cursor;
        }
        if (!stillWriting) return;
      }
    };
    const following = follow();
    const message = (n: number) => ({
      roomId: 'follow',
      topic: 'rooms/follow/public',
      topicKind: 'public' as const,
      topicAgentId: null,
      messageId: `f${n}`,
      type: 'chat',
      fromId: 'x',
      payload: Uint8Array.of(n % 256),
      receivedAt: T0 + n,
    });
    // Waves of concurrent writes through two stores (two instances), the reader polling meanwhile.
    try {
      for (let wave = 0; wave < 10; wave++) {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => {
            const n = wave * 20 + i;
            const through = i % 2 ? a : b;
            return i % 4 < 2
              ? through.relay.appendEvent(envelope(`f${n}`), open)
              : through.rooms.appendMessage(message(n));
          }),
        );
      }
    } finally {
      writing = false;
      await following;
    }
    expect(gaps).toEqual([]);
    expect([lastSeq, lastCursor]).toEqual([100, 100]);
  });

  it('refuses one failing append of a group commit alone; the others are stored in call order', async () => {
    await db.reset();
    const s = await store();
    const message = (n: number, type = 'chat') => ({
      roomId: 'g',
      topic: 'rooms/g/public',
      topicKind: 'public' as const,
      topicAgentId: null,
      messageId: `m${n}`,
      type,
      fromId: 'x',
      payload: Uint8Array.of(n),
      receivedAt: T0 + n,
    });
    // Submitted in one turn, so they share a transaction; PostgreSQL text refuses U+0000.
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, n) => s.rooms.appendMessage(message(n, n === 3 ? 'bad\u0000' : 'chat'))),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const { messages } = await s.rooms.listMessages({ roomId: 'g', limit: 100 });
    expect(messages.map((m) => m.messageId)).toEqual(['m0', 'm1', 'm2', 'm4', 'm5', 'm6', 'm7']);
    expect(messages.map((m) => m.cursor)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await s.rooms.listRooms())[0]).toMatchObject({ id: 'g', messageCount: 7 });
  });

  it('never exceeds a budget spent through two stores (two instances) at once', async () => {
    await db.reset();
    const [a, b] = [await store(), await store()];
    await a.rooms.putGrant({
      roomId: 'r',
      agentId: 'ag',
      taskId: 't',
      maxMessages: 7,
      allowedTypes: ['chat'],
      expiresAt: 2_000_000_000,
      grantedAt: 1,
      grantMessageId: 'g',
    });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).rooms.spendGrant('r', 'ag', 't', 1_800_000_000)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    expect((await b.rooms.getGrant('r', 'ag', 't'))?.spent).toBe(7);
  });
});
