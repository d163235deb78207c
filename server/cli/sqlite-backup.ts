// `backup` and `restore` of the embedded SQLite store (docs/deploy.md "Backup and restore",
// decisions-server.md §61). A backup is SQLite's online backup taken while the server runs; a
// restore swaps a checked copy in on a stopped server and keeps what it replaced.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../store/sqlite/migrations';

/** A refusal the CLI prints as one coded line (exit 1). */
export class BackupRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface DatabaseSummary {
  readonly file: string;
  readonly bytes: number;
  readonly schemaVersion: number;
  readonly rooms: number;
  readonly messages: number;
}

export interface BackupResult extends DatabaseSummary {
  readonly ms: number;
}

export interface RestoreResult extends DatabaseSummary {
  /** Where the replaced database and its WAL/SHM files went; empty when DATA_DIR held none. */
  readonly keptAside: readonly string[];
}

const SIDE_FILES = ['-wal', '-shm'] as const;

const sqliteCode = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

function summarize(db: Database.Database, file: string): DatabaseSummary {
  const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const { version } = db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').get() as {
    version: number;
  };
  return {
    file,
    bytes: statSync(file).size,
    schemaVersion: version,
    rooms: count('rooms'),
    messages: count('room_messages'),
  };
}

const isSymlink = (path: string): boolean => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/**
 * A temporary file beside `near`, made here and now with a name nobody can predict and mode 0600
 * (decisions-server.md §82): created exclusively, so a file or symbolic link planted at that name
 * beforehand makes it fail instead of being written through.
 */
function ownerOnlyTemporary(near: string, what: string): string {
  const path = join(dirname(near), `.${basename(near)}.${what}-${randomBytes(12).toString('hex')}`);
  closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600));
  return path;
}

/**
 * Copies the live database at `source` to `target` with SQLite's online backup, in one step: one
 * read transaction, so the copy is one consistent snapshot. In WAL mode a reader does not block the
 * server's writers; a backup copied in many small steps would instead restart at every write of
 * another process and might never finish under load. Written to a temporary name beside `target`
 * and linked into place only when complete, so `target` is never a partial file.
 */
export async function backupSqlite(
  source: string,
  target: string,
  options: { readonly force: boolean; readonly now: () => number },
): Promise<BackupResult> {
  if (!existsSync(source)) throw new BackupRefusal('NO_DATABASE', `there is no database at ${source} (DATA_DIR)`);
  if (existsSync(target) && !options.force)
    throw new BackupRefusal('BACKUP_EXISTS', `${target} already exists; pass --force to replace it`);
  if (!existsSync(dirname(target)))
    throw new BackupRefusal('NO_DIRECTORY', `the directory ${dirname(target)} does not exist`);
  if (isSymlink(target))
    throw new BackupRefusal('BACKUP_IS_SYMLINK', `${target} is a symbolic link; name the backup file itself`);
  const partial = ownerOnlyTemporary(target, 'partial');
  const started = options.now();
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    requireSwitchboard(db, source);
    await db.backup(partial, { progress: () => 0x7fffffff });
    chmodSync(partial, 0o600);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  try {
    const copy = new Database(partial, { fileMustExist: true });
    let summary: DatabaseSummary;
    try {
      summary = summarize(copy, partial);
    } finally {
      copy.close();
    }
    // link, not rename, without --force: it fails when `target` appeared meanwhile instead of
    // replacing it.
    if (options.force) renameSync(partial, target);
    else {
      linkSync(partial, target);
      rmSync(partial);
    }
    return { ...summary, file: target, ms: options.now() - started };
  } catch (error) {
    rmSync(partial, { force: true });
    if (sqliteCode(error) === 'EEXIST')
      throw new BackupRefusal('BACKUP_EXISTS', `${target} already exists; pass --force to replace it`);
    throw error;
  }
}

/** A database with Switchboard's schema_migrations table, whatever its version. */
function requireSwitchboard(db: Database.Database, file: string): void {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table)
    throw new BackupRefusal('NOT_A_SWITCHBOARD_DATABASE', `${file} is a SQLite database without Switchboard's schema`);
}

/** Checks a copy of a backup: an intact SQLite file with a schema this build can run. */
function checkRestorable(file: string, shownAs: string): DatabaseSummary {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    throw new BackupRefusal('NOT_A_SWITCHBOARD_DATABASE', `${shownAs} cannot be opened: ${String(error)}`);
  }
  try {
    let verdict: string;
    try {
      verdict = (db.pragma('integrity_check(1)') as { integrity_check: string }[])[0]?.integrity_check ?? '';
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // SQLITE_CORRUPT: a SQLite file damaged beyond what integrity_check can list.
      if (sqliteCode(error)?.startsWith('SQLITE_CORRUPT'))
        throw new BackupRefusal('CORRUPT_BACKUP', `${shownAs} fails SQLite's integrity check: ${reason}`);
      throw new BackupRefusal('NOT_A_SWITCHBOARD_DATABASE', `${shownAs} is not a SQLite database (${reason})`);
    }
    if (verdict !== 'ok')
      throw new BackupRefusal('CORRUPT_BACKUP', `${shownAs} fails SQLite's integrity check: ${verdict}`);
    requireSwitchboard(db, shownAs);
    const { version } = db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').get() as {
      version: number;
    };
    if (version > MIGRATIONS.length)
      throw new BackupRefusal(
        'SCHEMA_TOO_NEW',
        `${shownAs} has schema version ${version}, newer than this Switchboard knows (${MIGRATIONS.length}); upgrade Switchboard first`,
      );
    // The restored file stands alone: everything in the database file, no WAL beside it.
    db.pragma('wal_checkpoint(TRUNCATE)');
    return summarize(db, file);
  } finally {
    db.close();
  }
}

/**
 * Refuses while any process has the live database open. A WAL-mode connection holds a shared lock
 * on the database file for as long as it is open, idle or not, so an exclusive lock taken without
 * waiting fails exactly while the server (or a CLI command) runs on it. Closing this last
 * connection also checkpoints the WAL into the file that is about to be kept aside.
 */
function requireStopped(live: string): void {
  const db = new Database(live, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
    } catch (error) {
      if (sqliteCode(error)?.startsWith('SQLITE_BUSY') || sqliteCode(error)?.startsWith('SQLITE_LOCKED'))
        throw new BackupRefusal(
          'SERVER_RUNNING',
          `${live} is open in another process (the server?); stop the server on this DATA_DIR, then restore`,
        );
      throw error;
    }
  } finally {
    db.close();
  }
}

/** `20261127T071500123Z`: sortable, and safe in a file name everywhere. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:.]/g, '');

/**
 * Puts a checked copy of `backup` in place of the database at `live` on a stopped server; the
 * replaced database and its WAL/SHM files are renamed `<name>.before-restore-<timestamp>` (with
 * `-wal`/`-shm` after it, the names SQLite looks for beside that file), never deleted.
 */
export function restoreSqlite(backup: string, live: string, options: { readonly now: () => number }): RestoreResult {
  if (!existsSync(backup)) throw new BackupRefusal('NO_BACKUP', `there is no file at ${backup}`);
  if (statSync(backup).isDirectory()) throw new BackupRefusal('NO_BACKUP', `${backup} is a directory`);
  mkdirSync(dirname(live), { recursive: true });
  // Checked as a copy beside the live file: the backup itself is never written to, and the final
  // rename stays on one file system.
  const incoming = ownerOnlyTemporary(live, 'restoring');
  try {
    copyFileSync(backup, incoming);
    chmodSync(incoming, 0o600); // copyFileSync gives the copy the backup's own mode
    const summary = checkRestorable(incoming, backup);
    if (existsSync(live)) requireStopped(live);
    const aside = `${live}.before-restore-${stamp(options.now())}`;
    const keptAside: string[] = [];
    for (const suffix of ['', ...SIDE_FILES]) {
      if (!existsSync(`${live}${suffix}`)) continue;
      renameSync(`${live}${suffix}`, `${aside}${suffix}`);
      keptAside.push(`${aside}${suffix}`);
    }
    renameSync(incoming, live);
    return { ...summary, file: live, keptAside };
  } finally {
    for (const suffix of ['', ...SIDE_FILES]) rmSync(`${incoming}${suffix}`, { force: true });
  }
}
