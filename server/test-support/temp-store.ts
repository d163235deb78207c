// A real SQLite store in a fresh temp directory, removed again by `dispose`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../store/sqlite/sqlite-store';

export interface TempStore {
  readonly store: SqliteStore;
  readonly dir: string;
  dispose(): Promise<void>;
}

export function tempStore(): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite') });
  return {
    store,
    dir,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
