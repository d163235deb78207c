// Who may act, on PostgreSQL: agent credentials, operators, enrollment tokens, login challenges,
// sessions, and the audit log of what facilitators did. Single use is DELETE … RETURNING: of
// several instances consuming one token at once, exactly one gets the row.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { activityKind, activityTarget } from '@shared/contract/activity';
import { ACCESS_CHANGED_CHANNEL, pgAccessListener } from './pg-access-listener';
import type { PgChannelListener } from './pg-channel-listener';
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

/**
 * A write that may revoke a credential, with a NOTIFY in the same statement (one transaction):
 * listeners hear it at COMMIT, never before the change is visible, and never for a rolled-back one.
 */
const notifying = (write: string, channelParam: number) =>
  `WITH changed AS (${write} RETURNING 1) SELECT (SELECT count(*) FROM changed)::int AS changed, pg_notify('${ACCESS_CHANGED_CHANNEL}', $${channelParam}::text)`;

export class PgAccessStore implements AccessStore {
  readonly #pool: Pool;
  /** This store's NOTIFY payload, so its own listener skips its own changes. */
  readonly #instance = randomUUID();
  readonly #listener: PgChannelListener<true>;

  constructor(pool: Pool, url: string) {
    this.#pool = pool;
    this.#listener = pgAccessListener(url, this.#instance);
  }

  /** Changes to credentials, operators and sessions committed by other processes (NOTIFY). */
  watchAccessChanges(listener: () => void): () => void {
    return this.#listener.subscribe(listener);
  }

  close(): void {
    this.#listener.close();
  }

  async #changed(write: string, params: unknown[]): Promise<number> {
    const { rows } = await this.#pool.query<{ changed: number }>(notifying(write, params.length + 1), [
      ...params,
      this.#instance,
    ]);
    return rows[0]!.changed;
  }

  // Agent credentials.

  async putAgentCredential(credential: NewAgentCredential): Promise<void> {
    // A rotation: the old password's connections end.
    await this.#changed(
      `INSERT INTO agent_credentials (agent_id, password_hash, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (agent_id) DO UPDATE SET password_hash = excluded.password_hash, created_at = excluded.created_at`,
      [credential.agentId, credential.passwordHash, credential.createdAt],
    );
  }

  async getAgentCredential(agentId: string): Promise<AgentCredential | undefined> {
    const row = (
      await this.#pool.query<CredentialRow>('SELECT * FROM agent_credentials WHERE agent_id = $1', [agentId])
    ).rows[0];
    return row && toCredential(row);
  }

  async getAgentCredentials(agentIds: readonly string[]): Promise<AgentCredential[]> {
    if (agentIds.length === 0) return [];
    const { rows } = await this.#pool.query<CredentialRow>(
      'SELECT * FROM agent_credentials WHERE agent_id = ANY($1::text[])',
      [agentIds],
    );
    return rows.map(toCredential);
  }

  async listAgentCredentials(): Promise<AgentCredential[]> {
    return (await this.#pool.query<CredentialRow>('SELECT * FROM agent_credentials ORDER BY agent_id')).rows.map(
      toCredential,
    );
  }

  async pageAgentCredentials(page: AgentCredentialPage): Promise<AgentCredential[]> {
    const { where, params } = credentialPageWhere(page, (n) => `$${n}`);
    const { rows } = await this.#pool.query<CredentialRow>(
      `SELECT * FROM agent_credentials ${where} ORDER BY agent_id LIMIT $${params.length + 1}`,
      [...params, page.limit],
    );
    return rows.map(toCredential);
  }

  async countAgentCredentials(): Promise<AgentCredentialCounts> {
    const { rows } = await this.#pool.query<AgentCredentialCounts>(
      'SELECT count(*)::int AS total, count(suspended_at)::int AS suspended FROM agent_credentials',
    );
    return rows[0]!;
  }

  async removeAgentCredential(agentId: string): Promise<boolean> {
    return (await this.#changed('DELETE FROM agent_credentials WHERE agent_id = $1', [agentId])) === 1;
  }

  async upgradeAgentPasswordHash(agentId: string, from: string, to: string): Promise<boolean> {
    // No NOTIFY: the same password's faster form revokes nothing.
    const { rowCount } = await this.#pool.query(
      'UPDATE agent_credentials SET password_hash = $1 WHERE agent_id = $2 AND password_hash = $3',
      [to, agentId, from],
    );
    return rowCount === 1;
  }

  async setAgentSuspension(agentId: string, suspension: AgentSuspension | null): Promise<boolean> {
    return (
      (await this.#changed(
        'UPDATE agent_credentials SET suspended_at = $1, suspended_by = $2, suspend_reason = $3 WHERE agent_id = $4',
        [suspension?.at ?? null, suspension?.by ?? null, suspension?.reason ?? null, agentId],
      )) === 1
    );
  }

  async markAgentDisconnected(agentId: string, at: number): Promise<boolean> {
    // Past the current marker even within one millisecond: the broker looks for a change.
    return (
      (await this.#changed(
        'UPDATE agent_credentials SET disconnected_at = greatest($1::bigint, disconnected_at + 1) WHERE agent_id = $2',
        [at, agentId],
      )) === 1
    );
  }

  // Operators, enrollment, challenges, sessions.

  async putOperator(operator: Operator): Promise<void> {
    // A second put changes the role and keeps the original createdAt, and the name unless one is given.
    await this.#changed(
      `INSERT INTO operators (did, role, created_at, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (did) DO UPDATE SET role = excluded.role, name = coalesce($4, operators.name)`,
      [operator.did, operator.role, operator.createdAt, operator.name ?? null],
    );
  }

  async getOperator(did: string): Promise<Operator | undefined> {
    const row = (await this.#pool.query<OperatorRow>('SELECT * FROM operators WHERE did = $1', [did])).rows[0];
    return row && toOperator(row);
  }

  async listOperators(): Promise<Operator[]> {
    return (await this.#pool.query<OperatorRow>('SELECT * FROM operators ORDER BY created_at, did')).rows.map(
      toOperator,
    );
  }

  async getOperators(dids: readonly string[]): Promise<Operator[]> {
    if (dids.length === 0) return [];
    const { rows } = await this.#pool.query<OperatorRow>('SELECT * FROM operators WHERE did = ANY($1::text[])', [dids]);
    return rows.map(toOperator);
  }

  async setOperatorName(did: string, name: string | null): Promise<boolean> {
    // A name is no credential: no NOTIFY, nothing for the broker to re-check.
    return (await this.#pool.query('UPDATE operators SET name = $1 WHERE did = $2', [name, did])).rowCount === 1;
  }

  async setOperatorRole(did: string, role: OperatorRole): Promise<boolean> {
    return (await this.#changed('UPDATE operators SET role = $1 WHERE did = $2', [role, did])) === 1;
  }

  async removeOperator(did: string): Promise<boolean> {
    // Sessions go with the operator (ON DELETE CASCADE).
    return (await this.#changed('DELETE FROM operators WHERE did = $1', [did])) === 1;
  }

  async createEnrollment(
    tokenHash: string,
    role: OperatorRole,
    expiresAt: number,
    invite?: { readonly createdAt: number; readonly createdBy: string },
  ): Promise<void> {
    await this.#pool.query(
      'INSERT INTO enrollments (token_hash, role, expires_at, created_at, created_by) VALUES ($1, $2, $3, $4, $5)',
      [tokenHash, role, expiresAt, invite?.createdAt ?? null, invite?.createdBy ?? null],
    );
  }

  async consumeEnrollment(tokenHash: string, now: number, usedBy?: string): Promise<OperatorRole | undefined> {
    // The row lock makes the second of two concurrent updates re-check used_at: one caller wins.
    const row = (
      await this.#pool.query<{ role: OperatorRole }>(
        `UPDATE enrollments SET used_at = $1, used_by = $2
         WHERE token_hash = $3 AND used_at IS NULL AND expires_at > $1 RETURNING role`,
        [now, usedBy ?? null, tokenHash],
      )
    ).rows[0];
    await this.#pool.query('DELETE FROM enrollments WHERE expires_at <= $1', [now - ENROLLMENT_MEMORY_MS]);
    return row?.role;
  }

  async enrollmentRefusal(tokenHash: string, now: number): Promise<EnrollmentRefusal> {
    const row = (
      await this.#pool.query<{ used_at: number | null; expires_at: number }>(
        'SELECT used_at, expires_at FROM enrollments WHERE token_hash = $1',
        [tokenHash],
      )
    ).rows[0];
    return enrollmentRefusal(row, now);
  }

  async listPendingInvites(now: number): Promise<PendingInvite[]> {
    const { rows } = await this.#pool.query<EnrollmentRow>(
      `SELECT * FROM enrollments WHERE used_at IS NULL AND expires_at > $1
       ORDER BY coalesce(created_at, 0) DESC, token_hash LIMIT 100`,
      [now],
    );
    return rows.map(toPendingInvite);
  }

  async revokeInvite(id: string): Promise<boolean> {
    if (!/^[0-9a-f]{16}$/.test(id)) return false;
    const { rowCount } = await this.#pool.query(
      'DELETE FROM enrollments WHERE substr(token_hash, 1, 16) = $1 AND used_at IS NULL',
      [id],
    );
    return (rowCount ?? 0) > 0;
  }

  async beatServer(beat: ServerBeat): Promise<void> {
    await this.#pool.query(
      `INSERT INTO server_heartbeats (instance, base_url, pid, beat_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (instance) DO UPDATE SET base_url = excluded.base_url, pid = excluded.pid, beat_at = excluded.beat_at`,
      [beat.instance, beat.baseUrl, beat.pid, beat.beatAt],
    );
  }

  async liveServers(since: number): Promise<ServerBeat[]> {
    await this.#pool.query('DELETE FROM server_heartbeats WHERE beat_at < $1', [since - ENROLLMENT_MEMORY_MS]);
    const { rows } = await this.#pool.query<HeartbeatRow>(
      'SELECT * FROM server_heartbeats WHERE beat_at >= $1 ORDER BY beat_at DESC',
      [since],
    );
    return rows.map(toServerBeat);
  }

  async forgetServer(instance: string): Promise<void> {
    await this.#pool.query('DELETE FROM server_heartbeats WHERE instance = $1', [instance]);
  }

  async createChallenge(nonce: string, expiresAt: number): Promise<void> {
    await this.#pool.query('INSERT INTO login_challenges (nonce, expires_at) VALUES ($1, $2)', [nonce, expiresAt]);
  }

  async consumeChallenge(nonce: string, now: number): Promise<number | undefined> {
    const row = (
      await this.#pool.query<{ expires_at: number }>(
        'DELETE FROM login_challenges WHERE nonce = $1 RETURNING expires_at',
        [nonce],
      )
    ).rows[0];
    await this.#pool.query('DELETE FROM login_challenges WHERE expires_at <= $1', [now]);
    return row && row.expires_at > now ? row.expires_at : undefined;
  }

  async createSession(tokenHash: string, session: Session): Promise<void> {
    // The role is not stored: getSession reads the operator's current role.
    await this.#pool.query('INSERT INTO sessions (token_hash, did, expires_at) VALUES ($1, $2, $3)', [
      tokenHash,
      session.did,
      session.expiresAt,
    ]);
  }

  async getSession(tokenHash: string, now: number): Promise<Session | undefined> {
    const row = (
      await this.#pool.query<{ did: string; role: OperatorRole; expires_at: number }>(
        `SELECT s.did, o.role, s.expires_at FROM sessions s JOIN operators o ON o.did = s.did
         WHERE s.token_hash = $1 AND s.expires_at > $2`,
        [tokenHash, now],
      )
    ).rows[0];
    return row && { did: row.did, role: row.role, expiresAt: row.expires_at };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.#changed('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
  }

  // Audit log.

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const { rows } = await this.#pool.query<AuditRow>(
      `INSERT INTO audit_log (at, actor_did, action, room_id, message_id, details, kind, target)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        entry.at,
        entry.actorDid,
        entry.action,
        entry.roomId,
        entry.messageId,
        JSON.stringify(entry.details),
        activityKind(entry.action),
        activityTarget(entry.action, entry.actorDid, entry.details),
      ],
    );
    return toAudit(rows[0]!);
  }

  async listActivity(filter: ActivityFilter): Promise<ActivityRecord[]> {
    const { where, params } = activityWhere(filter, (n) => `$${n}`);
    const { rows } = await this.#pool.query<AuditRow>(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.length + 1}`,
      [...params, filter.limit],
    );
    return rows.map(toActivity);
  }

  async lastAgentActivity(agentIds: readonly string[]): Promise<ActivityRecord[]> {
    if (agentIds.length === 0) return [];
    // Per agent, audit_log_by_target read from its newest entry down to the first of kind agent.
    const { rows } = await this.#pool.query<AuditRow>(
      `SELECT a.* FROM unnest($1::text[]) AS t(target) CROSS JOIN LATERAL (
         SELECT * FROM audit_log WHERE target = t.target AND kind = 'agent' ORDER BY id DESC LIMIT 1) AS a`,
      [agentIds],
    );
    return rows.map(toActivity);
  }

  async listAudit(filter: {
    readonly roomId?: string;
    readonly limit: number;
    readonly before?: number;
  }): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.roomId !== undefined) where.push(`room_id = $${params.push(filter.roomId)}`);
    if (filter.before !== undefined) where.push(`id < $${params.push(filter.before)}`);
    const { rows } = await this.#pool.query<AuditRow>(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.push(filter.limit)}`,
      params,
    );
    return rows.map(toAudit);
  }
}
