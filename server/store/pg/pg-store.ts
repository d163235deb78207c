// The PostgreSQL store (DATABASE_URL): the Store contract over one connection pool, each part in
// its own file (rooms and grants, access, relay, negotiations, OACoP, external services) so a new part is one more file beside them.
// Several server instances may share the database: every decision is a conditional statement or
// a transaction holding the row it decides on (server/store/README.md).
import type { Pool } from 'pg';
import type {
  AgentCredential,
  ApprovalResult,
  AuditEntry,
  GrantRecord,
  MessagePage,
  MessageQuery,
  ModerationMode,
  NewAuditEntry,
  CandidateJudgement,
  CandidateRecord,
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
import { PgAccessStore } from './pg-access-store';
import { PgNegotiationStore } from './pg-negotiation-store';
import { PgOacopStore } from './pg-oacop-store';
import { PgServiceRegistryStore } from './pg-service-registry-store';
import { migratePg } from './pg-migrations';
import { createPgPool, probePg } from './pg-pool';
import { PgRelayStore } from './pg-relay-store';
import { PgRoomStore } from './pg-room-store';

export interface PgStoreOptions {
  /** postgres://user:password@host:port/database (DATABASE_URL). */
  readonly url: string;
  /** Pool size per store (default 10). */
  readonly maxConnections?: number;
}

export class PgStore implements Store {
  readonly relay: PgRelayStore;
  readonly negotiations: PgNegotiationStore;
  readonly oacop: PgOacopStore;
  readonly services: PgServiceRegistryStore;
  readonly #pool: Pool;
  readonly #rooms: PgRoomStore;
  readonly #access: PgAccessStore;
  #closed = false;

  /** Use openPgStore: the schema must be migrated before the first query. */
  constructor(pool: Pool, url: string) {
    this.#pool = pool;
    this.#rooms = new PgRoomStore(pool);
    this.#access = new PgAccessStore(pool);
    this.relay = new PgRelayStore(pool, url);
    this.negotiations = new PgNegotiationStore(pool);
    this.oacop = new PgOacopStore(pool);
    this.services = new PgServiceRegistryStore(pool);
  }

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
  endGrant(roomId: string, agentId: string, taskId: string, reason: string, at: number): Promise<boolean> {
    return this.#rooms.endGrant(roomId, agentId, taskId, reason, at);
  }
  listExpiredLiveGrants(nowSeconds: number): Promise<GrantRecord[]> {
    return this.#rooms.listExpiredLiveGrants(nowSeconds);
  }

  recordCandidate(candidate: NewRoomMessage, judgement: CandidateJudgement): Promise<CandidateRecord> {
    return this.#rooms.recordCandidate(candidate, judgement);
  }
  addReviewItem(item: NewReviewItem): Promise<ReviewItem> {
    return this.#rooms.addReviewItem(item);
  }
  listReviewItems(roomId: string, status?: ReviewItem['status']): Promise<ReviewItem[]> {
    return this.#rooms.listReviewItems(roomId, status);
  }
  approveReviewItem(
    id: number,
    by: string,
    at: number,
    nowSeconds: number,
    message: (item: ReviewItem) => NewRoomMessage,
  ): Promise<(ApprovalResult & { readonly item: ReviewItem }) | undefined> {
    return this.#rooms.approveReviewItem(id, by, at, nowSeconds, message);
  }
  decideReviewItem(id: number, status: 'approved' | 'rejected' | 'expired', by: string | null, reason: string | null, at: number): Promise<ReviewItem | undefined> {
    return this.#rooms.decideReviewItem(id, status, by, reason, at);
  }

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
    if (this.#closed) return;
    this.#closed = true;
    this.relay.close();
    await this.#pool.end();
  }
}

/** Connects, brings the schema up to date (pg-migrations.ts) and returns the store. */
export async function openPgStore(options: PgStoreOptions): Promise<PgStore> {
  await probePg(options.url);
  const pool = createPgPool({ url: options.url, ...(options.maxConnections === undefined ? {} : { max: options.maxConnections }) });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return new PgStore(pool, options.url);
}
