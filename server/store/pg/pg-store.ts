// The PostgreSQL store (DATABASE_URL): the Store contract over one connection pool, each part in
// its own file (rooms and grants, access, relay, negotiations, OACoP, external services) so a new
// part is one more file beside them, all behind the one argument check (checked-parts.ts).
// Several server instances may share the database: every decision is a conditional statement or
// a transaction holding the row it decides on (server/store/README.md).
import type { Pool } from 'pg';
import { checkedParts } from '../checked-parts';
import type { NegotiationStore } from '../negotiation-store';
import type { OacopStore } from '../oacop-store';
import type { RelayStore } from '../relay-store';
import type { ServiceRegistryStore } from '../service-registry-store';
import type { WebhookStore } from '../webhook-store';
import type { InboxStore } from '../inbox-store';
import type { AccessStore, RoomStore, Store } from '../store';
import { PgAccessStore } from './pg-access-store';
import { PgNegotiationStore } from './pg-negotiation-store';
import { PgOacopStore } from './pg-oacop-store';
import { PgServiceRegistryStore } from './pg-service-registry-store';
import { PgWebhookStore } from './pg-webhook-store';
import { PgAgentImportStore } from './pg-agent-import-store';
import type { AgentImportStore } from '../agent-import-store';
import { PgInboxStore } from './pg-inbox-store';
import { migratePg } from './pg-migrations';
import { createPgPool, probePg } from './pg-pool';
import type { CommitListener } from './pg-group-commit';
import { PgRelayStore } from './pg-relay-store';
import { PgRoomStore } from './pg-room-store';

export interface PgStoreOptions {
  /** postgres://user:password@host:port/database (DATABASE_URL). */
  readonly url: string;
  /** Pool size per store (default 10). */
  readonly maxConnections?: number;
}

export class PgStore implements Store {
  readonly rooms: RoomStore;
  readonly access: AccessStore;
  readonly relay: RelayStore;
  readonly negotiations: NegotiationStore;
  readonly oacop: OacopStore;
  readonly services: ServiceRegistryStore;
  readonly webhooks: WebhookStore;
  readonly agentImports: AgentImportStore;
  readonly inbox: InboxStore;
  readonly #pool: Pool;
  /** The parts holding LISTEN connections, closed before the pool. */
  readonly #listening: readonly { close(): void }[];
  #closed = false;

  /** Hears the group commits of history appends, candidate records and relay appends. */
  readonly #committed = new Set<CommitListener>();

  /** Use openPgStore: the schema must be migrated before the first query. */
  constructor(pool: Pool, url: string) {
    const committed: CommitListener = (commit) => {
      for (const listener of [...this.#committed]) listener(commit);
    };
    const access = new PgAccessStore(pool, url);
    const relay = new PgRelayStore(pool, url, committed);
    this.#pool = pool;
    this.#listening = [relay, access];
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
      rooms: new PgRoomStore(pool, committed),
      access,
      relay,
      negotiations: new PgNegotiationStore(pool),
      oacop: new PgOacopStore(pool),
      services: new PgServiceRegistryStore(pool),
      webhooks: new PgWebhookStore(pool),
      agentImports: new PgAgentImportStore(pool),
      inbox: new PgInboxStore(pool),
    }));
  }

  onCommit(listener: CommitListener): () => void {
    this.#committed.add(listener);
    return () => this.#committed.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const part of this.#listening) part.close();
    await this.#pool.end();
  }
}

/** Connects, brings the schema up to date (pg-migrations.ts) and returns the store. */
export async function openPgStore(options: PgStoreOptions): Promise<PgStore> {
  await probePg(options.url);
  const pool = createPgPool({
    url: options.url,
    ...(options.maxConnections === undefined ? {} : { max: options.maxConnections }),
  });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return new PgStore(pool, options.url);
}
