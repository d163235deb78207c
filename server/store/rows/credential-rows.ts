// agent_credentials rows as both engines read them (SQLite migration 11, PostgreSQL 9).
import type { AgentCredential, AgentCredentialPage } from '../store';

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

/**
 * The least string above every string that starts with `prefix`, in code point order (SQLite's
 * BINARY collation on UTF-8 and PostgreSQL's "C" both order so): the prefix with its last code
 * point raised by one, a last U+10FFFF dropped first. Undefined when nothing is above them all.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    // Surrogates are no characters of a stored id: after U+D7FF comes U+E000.
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return undefined;
}

/** The WHERE of a credential page: a range of the primary key, in the engine's placeholder style. */
export function credentialPageWhere(
  page: AgentCredentialPage,
  placeholder: (n: number) => string,
): { where: string; params: string[] } {
  const where: string[] = [];
  const params: string[] = [];
  const add = (op: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    where.push(`agent_id ${op} ${placeholder(params.length)}`);
  };
  add('>', page.after);
  if (page.prefix !== undefined) {
    add('>=', page.prefix);
    add('<', prefixEnd(page.prefix));
  }
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}
