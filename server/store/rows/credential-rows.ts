// agent_credentials rows as both engines read them (SQLite migration 11, PostgreSQL 9).
import type { AgentCredential } from '../store';

export interface CredentialRow {
  agent_id: string;
  password_hash: string;
  created_at: number;
  suspended_at: number | null;
  suspended_by: string | null;
  suspend_reason: string | null;
  disconnected_at: number | null;
}

export const toCredential = (row: CredentialRow): AgentCredential => ({
  agentId: row.agent_id,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
  suspended:
    row.suspended_at === null
      ? null
      : { at: row.suspended_at, by: row.suspended_by ?? '', reason: row.suspend_reason ?? '' },
  disconnectedAt: row.disconnected_at,
});
