// Notices commits made to the file by other connections (the CLI in another process): SQLite's
// `PRAGMA data_version` changes when another connection committed since this one last asked
// (https://sqlite.org/pragma.html#pragma_data_version); this connection's own commits and the
// checkpoint worker's passive checkpoints leave it alone. One read of the WAL index per poll,
// microseconds on the event loop.
import type Database from 'better-sqlite3';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('store');

/** How often the server's connection asks: a revocation by the CLI closes connections within this. */
export const DATA_VERSION_POLL_MS = 150;

/** Each call: whether another connection committed since the previous call (or since this was made). */
export function otherCommits(db: Database.Database): () => boolean {
  const read = db.prepare('PRAGMA data_version').pluck();
  let seen = read.get() as number;
  return () => {
    const now = read.get() as number;
    const changed = now !== seen;
    seen = now;
    return changed;
  };
}

/** Calls `listener` after each poll that finds another connection's commit; returns how to stop. */
export function watchDataVersion(
  db: Database.Database,
  listener: () => void,
  everyMs = DATA_VERSION_POLL_MS,
): () => void {
  const changed = otherCommits(db);
  const timer = setInterval(() => {
    if (!db.open) return;
    let yes: boolean;
    try {
      yes = changed();
    } catch (error) {
      // A read that fails (a failing disk) is not fatal here: the revalidation sweep stays the backstop.
      log.warn({ reason: (error as Error).message }, 'reading PRAGMA data_version failed');
      return;
    }
    if (yes) listener();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
