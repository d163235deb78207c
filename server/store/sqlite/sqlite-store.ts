// The embedded store: one SQLite file under DATA_DIR, shared by the server and the CLI. This file
// opens it (pragmas, migrations, the checkpoint worker) and holds its parts, each in its own file
// as in pg-store.ts: rooms and grants, access, relay, negotiations, OACoP, external services,
// behind the one argument check (checked-parts.ts).
// Every decision (spend a budget, consume a token, decide a review item, end a grant) is one
// conditional statement whose affected row is the verdict, never a read followed by a write in
// JS, so the PostgreSQL store can run the same statements across several server instances.
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { checkedParts } from '../checked-parts';
import type { NegotiationStore } from '../negotiation-store';
import type { OacopStore } from '../oacop-store';
import type { RelayStore } from '../relay-store';
import type { ServiceRegistryStore } from '../service-registry-store';
import type { WebhookStore } from '../webhook-store';
import type { InboxStore } from '../inbox-store';
import type { AccessStore, RoomStore, Store } from '../store';
import { migrate } from './migrations';
import { SqliteAccessStore } from './sqlite-access-store';
import { SqliteGroupCommit, type GroupCommitted } from './sqlite-group-commit';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';
import { SqliteNegotiationStore } from './sqlite-negotiation-store';
import { SqliteOacopStore } from './sqlite-oacop-store';
import { SqliteRelayStore } from './sqlite-relay-store';
import { SqliteRoomStore } from './sqlite-room-store';
import { SqliteServiceRegistryStore } from './sqlite-service-registry-store';
import { SqliteWebhookStore } from './sqlite-webhook-store';
import { SqliteAgentImportStore } from './sqlite-agent-import-store';
import type { AgentImportStore } from '../agent-import-store';
import { SqliteInboxStore } from './sqlite-inbox-store';

export const SQLITE_FILE_NAME = 'switchboard.sqlite';

export interface SqliteStoreOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  readonly file: string;
  /** How long a writer waits for another process's lock before failing (ms). */
  readonly busyTimeoutMs?: number;
  /**
   * Copies the WAL into the database on a worker thread (wal-checkpointer.ts), so checkpoints'
   * fsyncs do not stall the event loop. The server turns it on (open-store.ts); a file only.
   */
  readonly checkpointInWorker?: boolean;
}

/**
 * The data directory 0700 and the database 0600 (decisions-server.md §82): the file holds webhook
 * secrets and the hashes of sessions and agent passwords, which no other local user may read. The
 * directory is made 0700, or tightened to it when it exists and is this user's own (a shared,
 * sticky directory such as /tmp is left as it is); the file is created 0600 before
 * SQLite opens it (SQLite gives -wal and -shm the same mode), or tightened when it exists. A
 * database file that is a symbolic link is refused: whoever could plant one could point it anywhere.
 */
function prepareOwnerOnly(file: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const held = statSync(dir);
  const sticky = (held.mode & 0o1000) !== 0;
  if (!sticky && held.uid === process.getuid?.() && (held.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  if (existsSync(file) || isSymlink(file)) {
    if (isSymlink(file)) throw new Error(`${file} is a symbolic link; DATA_DIR must hold the database file itself`);
    chmodSync(file, 0o600);
  } else closeSync(openSync(file, 'wx', 0o600));
}

function tightenSideFiles(file: string): void {
  for (const side of [`${file}-wal`, `${file}-shm`]) if (existsSync(side) && !isSymlink(side)) chmodSync(side, 0o600);
}

const isSymlink = (path: string): boolean => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/**
 * With the checkpoint worker, the server's own automatic checkpoint runs every this many WAL pages
 * (40 MiB at 4 KiB) instead of SQLite's 1,000: it is still what lets the WAL restart.
 */
export const WAL_RESTART_PAGES = 10_000;

/** Opens (creating if needed) the file with the server's pragmas and brings its schema up to date. */
function openDatabase(options: SqliteStoreOptions): Database.Database {
  if (options.file !== ':memory:') prepareOwnerOnly(options.file);
  const db = new Database(options.file);
  try {
    // busy_timeout first: the CLI and the server may open the file at the same moment.
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.pragma('journal_mode = WAL');
    // SQLite makes -wal and -shm with the database file's mode; ones left by an older build are tightened.
    if (options.file !== ':memory:') tightenSideFiles(options.file);
    // NORMAL in WAL mode: a commit survives the process being killed (SIGKILL included; see
    // rooms/durability.test.ts), and only an OS crash or power loss can lose the last commits.
    // FULL measured 0.70 ms per commit here against 0.022 ms, about four commits per moderated
    // message: it capped the gateway near 350 msg/s (docs/decisions.md). Power-loss durability
    // is PostgreSQL's job (DATABASE_URL).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    // Planner statistics (ENABLE_STAT4 in better-sqlite3's build) let a sparse filter, say one
    // agent in a room of 100k messages, use its index instead of scanning the room.
    db.pragma('analysis_limit = 1000');
    db.pragma('optimize = 0x10002');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export class SqliteStore implements Store {
  readonly rooms: RoomStore;
  readonly access: AccessStore;
  readonly relay: RelayStore;
  readonly negotiations: NegotiationStore;
  readonly oacop: OacopStore;
  readonly services: ServiceRegistryStore;
  readonly webhooks: WebhookStore;
  readonly agentImports: AgentImportStore;
  readonly inbox: InboxStore;
  readonly #db: Database.Database;
  /** History appends, the gateway's candidate records and relay appends share a commit per event-loop turn. */
  readonly #commits: SqliteGroupCommit;
  readonly #access: SqliteAccessStore;
  #checkpointer: WalCheckpointer | undefined;

  constructor(options: SqliteStoreOptions) {
    const db = openDatabase(options);
    const commits = new SqliteGroupCommit(db);
    this.#db = db;
    this.#commits = commits;
    this.#access = new SqliteAccessStore(db, options.file === ':memory:');
    ({
      rooms: this.rooms,
      access: this.access,
      relay: this.relay,
      negotiations: this.negotiations,
      oacop: this.oacop,
      services: this.services,
      webhooks: this.webhooks,
      agentImports: this.agentImports,
      inbox: this.inbox,
    } = checkedParts({
      rooms: new SqliteRoomStore(db, commits),
      access: this.#access,
      relay: new SqliteRelayStore(db, commits),
      negotiations: new SqliteNegotiationStore(db),
      oacop: new SqliteOacopStore(db),
      services: new SqliteServiceRegistryStore(db),
      webhooks: new SqliteWebhookStore(db),
      agentImports: new SqliteAgentImportStore(db),
      inbox: new SqliteInboxStore(db),
    }));
    if (options.checkpointInWorker && options.file !== ':memory:') {
      this.#checkpointer = startWalCheckpointer(options.file);
      // The in-thread checkpoint then only restarts the WAL, ten times less often
      // (decisions-server.md §32): each one that ran on the event loop was a stall of milliseconds.
      db.pragma(`wal_autocheckpoint = ${WAL_RESTART_PAGES}`);
    }
  }

  onCommit(listener: (commit: GroupCommitted) => void): () => void {
    return this.#commits.onCommitted(listener);
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    this.#access.close();
    this.#commits.flush();
    await this.#checkpointer?.stop();
    this.#db.pragma('optimize');
    this.#db.close();
  }
}

/** Opens (creating if needed) the store file and brings its schema up to date. */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}
