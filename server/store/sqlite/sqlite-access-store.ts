// Who may act, on SQLite: agent credentials, operators, enrollment tokens, login challenges,
// sessions, and the audit log of what facilitators did. Single use is DELETE … RETURNING: only
// one caller gets the row (pg-access-store.ts is the same on PostgreSQL).
import type Database from 'better-sqlite3';
import { activityKind, activityTarget } from '@shared/contract/activity';
import { credentialPageWhere, toCredential, type CredentialRow } from '../rows/credential-rows';
import { toOperator, type OperatorRow } from '../rows/operator-rows';
import { toActivity, toAudit, type AuditRow } from '../rows/room-rows';
import {
  activityWhere,
  ENROLLMENT_MEMORY_MS,
  enrollmentRefusal,
  toPendingInvite,
  toServerBeat,
  type EnrollmentRow,
  type HeartbeatRow,
} from '../rows/operator-rows';
import type {
  AccessStore,
  ActivityFilter,
  ActivityRecord,
  EnrollmentRefusal,
  PendingInvite,
  ServerBeat,
  AgentCredential,
  AgentCredentialCounts,
  AgentCredentialPage,
  AgentSuspension,
  AuditEntry,
  NewAgentCredential,
  NewAuditEntry,
  Operator,
  OperatorRole,
  Session,
} from '../store';
import { watchDataVersion } from './data-version-watch';
import { statementCache } from './statement-cache';

export class SqliteAccessStore implements AccessStore {
  readonly #db: Database.Database;
  readonly #sql: (text: string) => Database.Statement;
  /** A private in-memory database has no other connection to watch. */
  readonly #inMemory: boolean;
  readonly #watches = new Set<() => void>();

  constructor(db: Database.Database, inMemory: boolean) {
    this.#db = db;
    this.#sql = statementCache(db, 100);
    this.#inMemory = inMemory;
  }

  /** Another connection's commit, seen through PRAGMA data_version (data-version-watch.ts). */
  watchAccessChanges(listener: () => void): () => void {
    if (this.#inMemory) return () => undefined;
    const stopWatch = watchDataVersion(this.#db, listener);
    const stop = () => {
      stopWatch();
      this.#watches.delete(stop);
    };
    this.#watches.add(stop);
    return stop;
  }

  /** Stops the watches before the file closes. */
  close(): void {
    for (const stop of [...this.#watches]) stop();
  }

  // Agent credentials.

  async putAgentCredential(credential: NewAgentCredential): Promise<void> {
    this.#sql(
      `INSERT INTO agent_credentials (agent_id, password_hash, created_at) VALUES (?, ?, ?)
       ON CONFLICT (agent_id) DO UPDATE SET password_hash = excluded.password_hash, created_at = excluded.created_at`,
    ).run(credential.agentId, credential.passwordHash, credential.createdAt);
  }

  async getAgentCredential(agentId: string): Promise<AgentCredential | undefined> {
    const row = this.#sql('SELECT * FROM agent_credentials WHERE agent_id = ?').get(agentId) as
      CredentialRow | undefined;
    return row && toCredential(row);
  }

  async getAgentCredentials(agentIds: readonly string[]): Promise<AgentCredential[]> {
    if (agentIds.length === 0) return [];
    const rows = this.#sql('SELECT * FROM agent_credentials WHERE agent_id IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(agentIds),
    ) as CredentialRow[];
    return rows.map(toCredential);
  }

  async listAgentCredentials(): Promise<AgentCredential[]> {
    const rows = this.#sql('SELECT * FROM agent_credentials ORDER BY agent_id').all() as CredentialRow[];
    return rows.map(toCredential);
  }

  async pageAgentCredentials(page: AgentCredentialPage): Promise<AgentCredential[]> {
    const { where, params } = credentialPageWhere(page, () => '?');
    const rows = this.#sql(`SELECT * FROM agent_credentials ${where} ORDER BY agent_id LIMIT ?`).all(
      ...params,
      page.limit,
    ) as CredentialRow[];
    return rows.map(toCredential);
  }

  async countAgentCredentials(): Promise<AgentCredentialCounts> {
    return this.#sql(
      'SELECT count(*) AS total, count(suspended_at) AS suspended FROM agent_credentials',
    ).get() as AgentCredentialCounts;
  }

  async removeAgentCredential(agentId: string): Promise<boolean> {
    return this.#sql('DELETE FROM agent_credentials WHERE agent_id = ?').run(agentId).changes === 1;
  }

  async upgradeAgentPasswordHash(agentId: string, from: string, to: string): Promise<boolean> {
    return (
      this.#sql('UPDATE agent_credentials SET password_hash = ? WHERE agent_id = ? AND password_hash = ?').run(
        to,
        agentId,
        from,
      ).changes === 1
    );
  }

  async setAgentSuspension(agentId: string, suspension: AgentSuspension | null): Promise<boolean> {
    return (
      this.#sql(
        'UPDATE agent_credentials SET suspended_at = ?, suspended_by = ?, suspend_reason = ? WHERE agent_id = ?',
      ).run(suspension?.at ?? null, suspension?.by ?? null, suspension?.reason ?? null, agentId).changes === 1
    );
  }

  async markAgentDisconnected(agentId: string, at: number): Promise<boolean> {
    // Past the current marker even within one millisecond: the broker looks for a change.
    return (
      this.#sql(
        `UPDATE agent_credentials SET disconnected_at = max(?, coalesce(disconnected_at + 1, ?)) WHERE agent_id = ?`,
      ).run(at, at, agentId).changes === 1
    );
  }

  // Operators, enrollment, challenges, sessions.

  async putOperator(operator: Operator): Promise<void> {
    // A second put changes the role and keeps the original createdAt, and the name unless one is given.
    this.#sql(
      `INSERT INTO operators (did, role, created_at, name) VALUES (?, ?, ?, ?)
       ON CONFLICT (did) DO UPDATE SET role = excluded.role, name = coalesce(?, operators.name)`,
    ).run(operator.did, operator.role, operator.createdAt, operator.name ?? null, operator.name ?? null);
  }

  async getOperator(did: string): Promise<Operator | undefined> {
    const row = this.#sql('SELECT * FROM operators WHERE did = ?').get(did) as OperatorRow | undefined;
    return row && toOperator(row);
  }

  async listOperators(): Promise<Operator[]> {
    const rows = this.#sql('SELECT * FROM operators ORDER BY created_at, did').all() as OperatorRow[];
    return rows.map(toOperator);
  }

  async getOperators(dids: readonly string[]): Promise<Operator[]> {
    if (dids.length === 0) return [];
    const rows = this.#sql('SELECT * FROM operators WHERE did IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(dids),
    ) as OperatorRow[];
    return rows.map(toOperator);
  }

  async setOperatorName(did: string, name: string | null): Promise<boolean> {
    return this.#sql('UPDATE operators SET name = ? WHERE did = ?').run(name, did).changes === 1;
  }

  async setOperatorRole(did: string, role: OperatorRole): Promise<boolean> {
    return this.#sql('UPDATE operators SET role = ? WHERE did = ?').run(role, did).changes === 1;
  }

  async removeOperator(did: string): Promise<boolean> {
    // Sessions go with the operator (ON DELETE CASCADE).
    return this.#sql('DELETE FROM operators WHERE did = ?').run(did).changes === 1;
  }

  async createEnrollment(
    tokenHash: string,
    role: OperatorRole,
    expiresAt: number,
    invite?: { readonly createdAt: number; readonly createdBy: string },
  ): Promise<void> {
    this.#sql(
      'INSERT INTO enrollments (token_hash, role, expires_at, created_at, created_by) VALUES (?, ?, ?, ?, ?)',
    ).run(tokenHash, role, expiresAt, invite?.createdAt ?? null, invite?.createdBy ?? null);
  }

  async consumeEnrollment(tokenHash: string, now: number, usedBy?: string): Promise<OperatorRole | undefined> {
    // UPDATE … WHERE used_at IS NULL RETURNING is the single use: only one caller gets the row.
    const row = this.#sql(
      'UPDATE enrollments SET used_at = ?, used_by = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING role',
    ).get(now, usedBy ?? null, tokenHash, now) as { role: OperatorRole } | undefined;
    this.#sql('DELETE FROM enrollments WHERE expires_at <= ?').run(now - ENROLLMENT_MEMORY_MS);
    return row?.role;
  }

  async enrollmentRefusal(tokenHash: string, now: number): Promise<EnrollmentRefusal> {
    const row = this.#sql('SELECT used_at, expires_at FROM enrollments WHERE token_hash = ?').get(tokenHash) as
      { used_at: number | null; expires_at: number } | undefined;
    return enrollmentRefusal(row, now);
  }

  async listPendingInvites(now: number): Promise<PendingInvite[]> {
    const rows = this.#sql(
      `SELECT * FROM enrollments WHERE used_at IS NULL AND expires_at > ?
       ORDER BY coalesce(created_at, 0) DESC, token_hash LIMIT 100`,
    ).all(now) as EnrollmentRow[];
    return rows.map(toPendingInvite);
  }

  async revokeInvite(id: string): Promise<boolean> {
    if (!/^[0-9a-f]{16}$/.test(id)) return false;
    return (
      this.#sql('DELETE FROM enrollments WHERE substr(token_hash, 1, 16) = ? AND used_at IS NULL').run(id).changes > 0
    );
  }

  async beatServer(beat: ServerBeat): Promise<void> {
    this.#sql(
      `INSERT INTO server_heartbeats (instance, base_url, pid, beat_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (instance) DO UPDATE SET base_url = excluded.base_url, pid = excluded.pid, beat_at = excluded.beat_at`,
    ).run(beat.instance, beat.baseUrl, beat.pid, beat.beatAt);
  }

  async liveServers(since: number): Promise<ServerBeat[]> {
    this.#sql('DELETE FROM server_heartbeats WHERE beat_at < ?').run(since - ENROLLMENT_MEMORY_MS);
    const rows = this.#sql('SELECT * FROM server_heartbeats WHERE beat_at >= ? ORDER BY beat_at DESC').all(
      since,
    ) as HeartbeatRow[];
    return rows.map(toServerBeat);
  }

  async forgetServer(instance: string): Promise<void> {
    this.#sql('DELETE FROM server_heartbeats WHERE instance = ?').run(instance);
  }

  async createChallenge(nonce: string, expiresAt: number): Promise<void> {
    this.#sql('INSERT INTO login_challenges (nonce, expires_at) VALUES (?, ?)').run(nonce, expiresAt);
  }

  async consumeChallenge(nonce: string, now: number): Promise<number | undefined> {
    const row = this.#sql('DELETE FROM login_challenges WHERE nonce = ? RETURNING expires_at').get(nonce) as
      { expires_at: number } | undefined;
    this.#sql('DELETE FROM login_challenges WHERE expires_at <= ?').run(now);
    return row && row.expires_at > now ? row.expires_at : undefined;
  }

  async createSession(tokenHash: string, session: Session): Promise<void> {
    // The role is not stored: getSession reads the operator's current role.
    this.#sql('INSERT INTO sessions (token_hash, did, expires_at) VALUES (?, ?, ?)').run(
      tokenHash,
      session.did,
      session.expiresAt,
    );
  }

  async getSession(tokenHash: string, now: number): Promise<Session | undefined> {
    const row = this.#sql(
      `SELECT s.did, o.role, s.expires_at FROM sessions s JOIN operators o ON o.did = s.did
       WHERE s.token_hash = ? AND s.expires_at > ?`,
    ).get(tokenHash, now) as { did: string; role: OperatorRole; expires_at: number } | undefined;
    return row && { did: row.did, role: row.role, expiresAt: row.expires_at };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.#sql('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
  }

  // Audit log.

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const row = this.#sql(
      `INSERT INTO audit_log (at, actor_did, action, room_id, message_id, details, kind, target)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      entry.at,
      entry.actorDid,
      entry.action,
      entry.roomId,
      entry.messageId,
      JSON.stringify(entry.details),
      activityKind(entry.action),
      activityTarget(entry.action, entry.actorDid, entry.details),
    ) as AuditRow;
    return toAudit(row);
  }

  async listActivity(filter: ActivityFilter): Promise<ActivityRecord[]> {
    const { where, params } = activityWhere(filter, () => '?');
    const rows = this.#sql(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
    ).all(...params, filter.limit) as AuditRow[];
    return rows.map(toActivity);
  }

  async lastAgentActivity(agentIds: readonly string[]): Promise<ActivityRecord[]> {
    if (agentIds.length === 0) return [];
    // Per agent, audit_log_by_target read from its newest entry down to the first of kind agent.
    const rows = this.#sql(
      `SELECT a.* FROM json_each(?) AS t JOIN audit_log AS a ON a.id = (
         SELECT id FROM audit_log WHERE target = t.value AND kind = 'agent' ORDER BY id DESC LIMIT 1)`,
    ).all(JSON.stringify(agentIds)) as AuditRow[];
    return rows.map(toActivity);
  }

  /** Newest first; pass the last id of a page as `before` for the next one. */
  async listAudit(filter: {
    readonly roomId?: string;
    readonly limit: number;
    readonly before?: number;
  }): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.roomId !== undefined) {
      where.push('room_id = ?');
      params.push(filter.roomId);
    }
    if (filter.before !== undefined) {
      where.push('id < ?');
      params.push(filter.before);
    }
    const rows = this.#sql(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
    ).all(...params, filter.limit) as AuditRow[];
    return rows.map(toAudit);
  }
}
