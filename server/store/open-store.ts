// Chooses the storage engine from the configuration: PostgreSQL when DATABASE_URL is set, else
// SQLite under DATA_DIR. Both pass the same suite (store-suite.ts).
import { join } from 'node:path';
import { ConfigError, type Config } from '../config';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite/sqlite-store';
import type { Store } from './store';

export function sqliteFileFor(dataDir: string): string {
  return join(dataDir, SQLITE_FILE_NAME);
}

/** Opens the configured store; any failure is a one-line ConfigError naming where it looked. */
export async function openStore(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Store> {
  if (config.databaseUrl !== undefined) return openPostgres(config.databaseUrl);
  const file = sqliteFileFor(config.dataDir);
  try {
    return new SqliteStore({ file, checkpointInWorker: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`cannot open the database ${file} (DATA_DIR): ${reason}`);
  }
}

async function openPostgres(url: string): Promise<Store> {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (postgres://user:password@host:5432/database).');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL, got a ${protocol}// one.`);
  }
  // Loaded only with DATABASE_URL: a SQLite server never holds the PostgreSQL driver in memory.
  const [{ describePgError, redactUrl }, { openPgStore }] = await Promise.all([
    import('./pg/pg-pool'),
    import('./pg/pg-store'),
  ]);
  try {
    return await openPgStore({ url });
  } catch (error) {
    // The password never reaches the message (redactUrl).
    throw new ConfigError(
      `cannot open the PostgreSQL database ${redactUrl(url)} (DATABASE_URL): ${describePgError(error)}`,
    );
  }
}
