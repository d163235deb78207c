// A fresh PostgreSQL database per test file: CREATE DATABASE sb_<random> through the admin
// database (TEST_DATABASE_URL, default the local server's `test`), dropped after the file, so
// runs never see each other's state and parallel files never collide. No PostgreSQL: the tests
// FAIL (CI has one), they never skip.
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { Client } from 'pg';

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface PgTestDatabase {
  /** The fresh database's URL; created on first call. */
  url(): Promise<string>;
  /** Empties every table the store owns (the schema stays), for a test that needs an empty store. */
  reset(): Promise<void>;
}

async function admin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect().catch((error: unknown) => {
    throw new Error(
      `PostgreSQL for tests is not reachable at ${url} (set TEST_DATABASE_URL): ${(error as Error).message || String(error)}`,
    );
  });
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Call at a test file's top level: the database is dropped in that file's afterAll. */
export function usePgDatabase(): PgTestDatabase {
  let created: Promise<string> | undefined;
  const name = `sb_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    if (!created) return;
    await created.catch(() => undefined);
    await admin(PG_ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  const url = () => {
    // synchronous_commit off: a test database need not survive a power cut, and a commit then
    // does not wait for its WAL flush, which keeps the suites at seconds on a slow disk.
    created ??= admin(PG_ADMIN_URL, async (client) => {
      await client.query(`CREATE DATABASE ${name}`);
      await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    }).then(() => databaseUrl(name));
    return created;
  };
  return {
    url,
    async reset() {
      const target = await url();
      await admin(target, async (client) => {
        const { rows } = await client.query<{ tablename: string }>(
          `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('schema_migrations', 'store_counters')`,
        );
        // DELETE, not TRUNCATE: on a handful of small tables it is several times faster.
        const statements = rows.map((r) => `DELETE FROM "${r.tablename}";`);
        // Before the first store opened there is no schema yet, and nothing to reset.
        if (rows.length > 0) statements.push('UPDATE store_counters SET value = 0;');
        // Children before parents (sessions → operators, room_messages → rooms).
        statements.sort((x, y) => Number(/operators|"rooms"/.test(x)) - Number(/operators|"rooms"/.test(y)));
        // The negotiation log's and negotiations' triggers refuse every delete (they are kept by
        // design); a test reset is the one writer allowed past them: replica mode skips triggers.
        if (statements.length > 0)
          await client.query(['SET session_replication_role = replica;', ...statements].join('\n'));
      });
    },
  };
}
