// Chooses the storage engine from the configuration: SQLite under DATA_DIR by default;
// PostgreSQL (DATABASE_URL) joins later and must pass the same suite (store-suite.ts).
import { join } from 'node:path';
import { ConfigError, type Config } from '../config';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite/sqlite-store';
import type { Store } from './store';

export function sqliteFileFor(dataDir: string): string {
  return join(dataDir, SQLITE_FILE_NAME);
}

/** Opens the configured store; any failure is a one-line ConfigError naming where it looked. */
export async function openStore(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Store> {
  if (config.databaseUrl !== undefined) {
    throw new ConfigError('DATABASE_URL is set, but PostgreSQL storage is not available yet; unset DATABASE_URL to use SQLite under DATA_DIR.');
  }
  const file = sqliteFileFor(config.dataDir);
  try {
    return new SqliteStore({ file });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`cannot open the database ${file} (DATA_DIR): ${reason}`);
  }
}
