// The embedded store: one SQLite file under DATA_DIR, shared by the server and the CLI. This file
// opens it (pragmas, migrations, the checkpoint worker) and holds its parts, each in its own file
// as in pg-store.ts: rooms and grants, access, relay, negotiations, OACoP, external services.
// Every decision (spend a budget, consume a token, decide a review item, end a grant) is one
// conditional statement whose affected row is the verdict, never a read followed by a write in
// JS, so the PostgreSQL store can run the same statements across several server instances.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  AgentCredential,
  ApprovalResult,
  AuditEntry,
  CandidateJudgement,
  CandidateRecord,
  GrantRecord,
  MessagePage,
  MessageQuery,
  ModerationMode,
  NewAuditEntry,
  NewReviewItem,
  NewRoomMessage,
  Operator,
  OperatorRole,
  ReviewItem,
  Room,
  RoomSummary,
  Session,
  SpendResult,
  Store,
  StoredRoomMessage,
} from '../store';
import { migrate } from './migrations';
import { SqliteAccessStore } from './sqlite-access-store';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';
import { SqliteNegotiationStore } from './sqlite-negotiation-store';
import { SqliteOacopStore } from './sqlite-oacop-store';
import { SqliteRelayStore } from './sqlite-relay-store';
import { SqliteRoomStore } from './sqlite-room-store';
import { SqliteServiceRegistryStore } from './sqlite-service-registry-store';

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
 * With the checkpoint worker, the server's own automatic checkpoint runs every this many WAL pages
 * (40 MiB at 4 KiB) instead of SQLite's 1,000: it is still what lets the WAL restart.
 */
export const WAL_RESTART_PAGES = 10_000;

export class SqliteStore implements Store {
  readonly relay: SqliteRelayStore;
  readonly negotiations: SqliteNegotiationStore;
  readonly oacop: SqliteOacopStore;
  readonly services: SqliteServiceRegistryStore;
  readonly #db: Database.Database;
  /** History appends, the gateway's candidate records and relay appends share a commit per event-loop turn. */
  readonly #commits: SqliteGroupCommit;
  readonly #rooms: SqliteRoomStore;
  readonly #access: SqliteAccessStore;
  #checkpointer: WalCheckpointer | undefined;

  constructor(options: SqliteStoreOptions) {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    const db = new Database(options.file);
    try {
      // busy_timeout first: the CLI and the server may open the file at the same moment.
      db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
      db.pragma('journal_mode = WAL');
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
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    this.#commits = new SqliteGroupCommit(db);
    this.#rooms = new SqliteRoomStore(db, this.#commits);
    this.#access = new SqliteAccessStore(db);
    this.relay = new SqliteRelayStore(db, this.#commits);
    this.negotiations = new SqliteNegotiationStore(db);
    this.oacop = new SqliteOacopStore(db);
    this.services = new SqliteServiceRegistryStore(db);
    if (options.checkpointInWorker && options.file !== ':memory:') {
      this.#checkpointer = startWalCheckpointer(options.file);
      // The in-thread checkpoint then only restarts the WAL, ten times less often
      // (decisions-server.md §32): each one that ran on the event loop was a stall of milliseconds.
      db.pragma(`wal_autocheckpoint = ${WAL_RESTART_PAGES}`);
    }
  }

  // Rooms, their history, mic grants and review mode (sqlite-room-store.ts).

  ensureRoom(room: Omit<Room, 'createdAt'> & { readonly createdAt?: number }): Promise<Room> {
    return this.#rooms.ensureRoom(room);
  }

  getRoom(id: string): Promise<Room | undefined> {
    return this.#rooms.getRoom(id);
  }

  setModeration(roomId: string, mode: ModerationMode): Promise<void> {
    return this.#rooms.setModeration(roomId, mode);
  }

  listRooms(): Promise<RoomSummary[]> {
    return this.#rooms.listRooms();
  }

  appendMessage(message: NewRoomMessage): Promise<StoredRoomMessage> {
    return this.#rooms.appendMessage(message);
  }

  listMessages(query: MessageQuery): Promise<MessagePage> {
    return this.#rooms.listMessages(query);
  }

  putGrant(grant: Omit<GrantRecord, 'spent' | 'endedAt' | 'endReason'>): Promise<GrantRecord> {
    return this.#rooms.putGrant(grant);
  }

  getGrant(roomId: string, agentId: string, taskId: string): Promise<GrantRecord | undefined> {
    return this.#rooms.getGrant(roomId, agentId, taskId);
  }

  listGrants(filter: { readonly roomId?: string; readonly active?: boolean }): Promise<GrantRecord[]> {
    return this.#rooms.listGrants(filter);
  }

  spendGrant(roomId: string, agentId: string, taskId: string, nowSeconds: number): Promise<SpendResult> {
    return this.#rooms.spendGrant(roomId, agentId, taskId, nowSeconds);
  }

  spendGrantAndAppend(roomId: string, agentId: string, taskId: string, nowSeconds: number, message: NewRoomMessage): Promise<ApprovalResult> {
    return this.#rooms.spendGrantAndAppend(roomId, agentId, taskId, nowSeconds, message);
  }

  recordCandidate(candidate: NewRoomMessage, judgement: CandidateJudgement): Promise<CandidateRecord> {
    return this.#rooms.recordCandidate(candidate, judgement);
  }

  approveReviewItem(id: number, by: string, at: number, nowSeconds: number, message: (item: ReviewItem) => NewRoomMessage): Promise<(ApprovalResult & { readonly item: ReviewItem }) | undefined> {
    return this.#rooms.approveReviewItem(id, by, at, nowSeconds, message);
  }

  endGrant(roomId: string, agentId: string, taskId: string, reason: string, at: number): Promise<boolean> {
    return this.#rooms.endGrant(roomId, agentId, taskId, reason, at);
  }

  listExpiredLiveGrants(nowSeconds: number): Promise<GrantRecord[]> {
    return this.#rooms.listExpiredLiveGrants(nowSeconds);
  }

  addReviewItem(item: NewReviewItem): Promise<ReviewItem> {
    return this.#rooms.addReviewItem(item);
  }

  listReviewItems(roomId: string, status?: ReviewItem['status']): Promise<ReviewItem[]> {
    return this.#rooms.listReviewItems(roomId, status);
  }

  decideReviewItem(id: number, status: 'approved' | 'rejected' | 'expired', by: string | null, reason: string | null, at: number): Promise<ReviewItem | undefined> {
    return this.#rooms.decideReviewItem(id, status, by, reason, at);
  }

  // Agent credentials, operators, enrollment, challenges, sessions, the audit log (sqlite-access-store.ts).

  putAgentCredential(credential: AgentCredential): Promise<void> {
    return this.#access.putAgentCredential(credential);
  }

  getAgentCredential(agentId: string): Promise<AgentCredential | undefined> {
    return this.#access.getAgentCredential(agentId);
  }

  listAgentCredentials(): Promise<AgentCredential[]> {
    return this.#access.listAgentCredentials();
  }

  removeAgentCredential(agentId: string): Promise<boolean> {
    return this.#access.removeAgentCredential(agentId);
  }

  putOperator(operator: Operator): Promise<void> {
    return this.#access.putOperator(operator);
  }

  getOperator(did: string): Promise<Operator | undefined> {
    return this.#access.getOperator(did);
  }

  listOperators(): Promise<Operator[]> {
    return this.#access.listOperators();
  }

  createEnrollment(tokenHash: string, role: OperatorRole, expiresAt: number): Promise<void> {
    return this.#access.createEnrollment(tokenHash, role, expiresAt);
  }

  consumeEnrollment(tokenHash: string, now: number): Promise<OperatorRole | undefined> {
    return this.#access.consumeEnrollment(tokenHash, now);
  }

  createChallenge(nonce: string, expiresAt: number): Promise<void> {
    return this.#access.createChallenge(nonce, expiresAt);
  }

  consumeChallenge(nonce: string, now: number): Promise<number | undefined> {
    return this.#access.consumeChallenge(nonce, now);
  }

  createSession(tokenHash: string, session: Session): Promise<void> {
    return this.#access.createSession(tokenHash, session);
  }

  getSession(tokenHash: string, now: number): Promise<Session | undefined> {
    return this.#access.getSession(tokenHash, now);
  }

  deleteSession(tokenHash: string): Promise<void> {
    return this.#access.deleteSession(tokenHash);
  }

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    return this.#access.appendAudit(entry);
  }

  listAudit(filter: { readonly roomId?: string; readonly limit: number; readonly before?: number }): Promise<AuditEntry[]> {
    return this.#access.listAudit(filter);
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
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
