// The PostgreSQL store (DATABASE_URL): the Store contract over one connection pool, each part in
// its own file (rooms and grants, access, relay, negotiations, OACoP, external services) so a new part is one more file beside them.
// Several server instances may share the database: every decision is a conditional statement or
// a transaction holding the row it decides on (server/store/README.md).
import type { Pool } from 'pg';
import { ComposedStore } from '../composed-store';
import type { Store } from '../store';
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

export class PgStore extends ComposedStore implements Store {
  readonly relay: PgRelayStore;
  readonly negotiations: PgNegotiationStore;
  readonly oacop: PgOacopStore;
  readonly services: PgServiceRegistryStore;
  readonly #pool: Pool;
  readonly #access: PgAccessStore;
  #closed = false;

  /** Use openPgStore: the schema must be migrated before the first query. */
  constructor(pool: Pool, url: string) {
    const access = new PgAccessStore(pool, url);
    super(new PgRoomStore(pool), access);
    this.#access = access;
    this.#pool = pool;
    this.relay = new PgRelayStore(pool, url);
    this.negotiations = new PgNegotiationStore(pool);
    this.oacop = new PgOacopStore(pool);
    this.services = new PgServiceRegistryStore(pool);
  }

  /** Credentials, operators and sessions changed by other processes (pg-access-listener.ts). */
  watchAccessChanges(listener: () => void): () => void {
    return this.#access.watchAccessChanges(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.relay.close();
    this.#access.close();
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
