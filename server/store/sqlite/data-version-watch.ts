// Notices commits made to the file by other connections (the CLI in another process): SQLite's
// `PRAGMA data_version` changes when, and only when, another connection committed since this one
// last asked (https://sqlite.org/pragma.html#pragma_data_version); this connection's own commits and
// the checkpoint worker's passive checkpoints leave it alone. One read of the WAL index per poll,
// microseconds on the event loop.
import type Database from 'better-sqlite3';

/** How often the server's connection asks: a revocation by the CLI closes connections within this. */
export const DATA_VERSION_POLL_MS = 150;

/** Calls `listener` after each poll that finds another connection's commit; returns how to stop. */
export function watchDataVersion(db: Database.Database, listener: () => void, everyMs = DATA_VERSION_POLL_MS): () => void {
  const read = db.prepare('PRAGMA data_version').pluck();
  let seen = read.get() as number;
  const timer = setInterval(() => {
    if (!db.open) return;
    const now = read.get() as number;
    if (now === seen) return;
    seen = now;
    listener();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
