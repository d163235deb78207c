// The connection pool every part of the PostgreSQL store shares, and the one transaction helper.
// BIGINT columns (ms timestamps, cursors, seqs) come back as JS numbers: every value the store
// keeps is far below 2^53, and the contract speaks numbers (docs/decisions-server.md §13).
import { Client, Pool, TypeOverrides, type PoolClient } from 'pg';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('store');

const INT8_OID = 20;

export interface PgPoolOptions {
  /** A postgres:// or postgresql:// URL (DATABASE_URL). */
  readonly url: string;
  /** Connections per store instance (default 10). */
  readonly max?: number;
}

export function pgTypes(): TypeOverrides {
  const types = new TypeOverrides();
  types.setTypeParser(INT8_OID, (text: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} is beyond what a JS number holds exactly`);
    return value;
  });
  return types;
}

export function createPgPool(options: PgPoolOptions): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    types: pgTypes(),
    // Also how long a query may queue for a free connection (pg-pool): generous, so a burst
    // waits rather than fails; an unreachable server at start is caught by probePg's 5 s.
    connectionTimeoutMillis: 30_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'switchboard',
  });
  // An idle connection the server drops (restart, failover) must not crash the process: the pool
  // discards it and the next query opens a new one.
  // A store being closed can still hear its last connections terminated: not worth a line.
  pool.on('error', (error) => {
    if (!pool.ending) log.warn({ db: 'postgres', reason: error.message }, 'idle PostgreSQL connection lost');
  });
  return pool;
}

/** Connects once with a 5 s limit, so an unreachable or refusing server is a prompt error at start. */
export async function probePg(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A connection that fails emits 'error' as well as rejecting connect(): the rejection is the report.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `work` inside BEGIN … COMMIT on one connection; any error rolls back and is rethrown. A
 * connection whose ROLLBACK fails too is destroyed rather than returned to the pool.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** One line for an error from pg or from the socket (Node reports some as an AggregateError with no message). */
export function describePgError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describePgError(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const text = error.message || code || error.name;
    return text.replace(/\s+/g, ' ').trim();
  }
  return String(error).replace(/\s+/g, ' ').trim();
}

/** The URL without its password, for error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
