// Operators, enrollment links, server heartbeats and activity filters as both engines read them.
import type { ActivityFilter, EnrollmentRefusal, Operator, OperatorRole, PendingInvite, ServerBeat } from '../store';

export interface OperatorRow {
  did: string;
  role: OperatorRole;
  created_at: number;
  name: string | null;
}

export const toOperator = (row: OperatorRow): Operator => ({
  did: row.did,
  role: row.role,
  createdAt: Number(row.created_at),
  name: row.name,
});

/** A used or expired link is remembered this long after it expired, so a retry is told why (§84). */
export const ENROLLMENT_MEMORY_MS = 7 * 24 * 60 * 60 * 1000;

export interface EnrollmentRow {
  token_hash: string;
  role: OperatorRole;
  expires_at: number;
  created_at: number | null;
  created_by: string | null;
  used_at: number | null;
  used_by: string | null;
}

export const toPendingInvite = (row: EnrollmentRow): PendingInvite => ({
  id: row.token_hash.slice(0, 16),
  role: row.role,
  expiresAt: Number(row.expires_at),
  createdAt: row.created_at === null ? null : Number(row.created_at),
  createdBy: row.created_by,
});

export function enrollmentRefusal(
  row: { used_at: number | null; expires_at: number } | undefined,
  now: number,
): EnrollmentRefusal {
  if (!row) return 'unknown';
  if (row.used_at !== null) return 'used';
  return Number(row.expires_at) <= now ? 'expired' : 'unknown';
}

export interface HeartbeatRow {
  instance: string;
  base_url: string;
  pid: number;
  beat_at: number;
}

export const toServerBeat = (row: HeartbeatRow): ServerBeat => ({
  instance: row.instance,
  baseUrl: row.base_url,
  pid: Number(row.pid),
  beatAt: Number(row.beat_at),
});

/** The WHERE of an activity page, in the engine's placeholder style; each filter has its index. */
export function activityWhere(
  filter: ActivityFilter,
  placeholder: (n: number) => string,
): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const add = (column: string, value: string | number | undefined, op = '=') => {
    if (value === undefined) return;
    params.push(value);
    where.push(`${column} ${op} ${placeholder(params.length)}`);
  };
  add('actor_did', filter.actorDid);
  add('kind', filter.kind);
  add('target', filter.target);
  add('room_id', filter.roomId);
  add('id', filter.before, '<');
  return { where, params };
}
