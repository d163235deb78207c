// SQLite side of service-registry-store.ts: one connection, page + cursor in one transaction.
import type Database from 'better-sqlite3';
import type { BridgedEnvelope, BridgedPage, ExternalService, ServiceRegistryStore } from '../service-registry-store';

interface ServiceRow {
  id: string;
  name: string;
  base_url: string;
  kind: 'relay' | 'negotiation';
  read_only: number;
  origin: 'env' | 'console';
  created_at: number;
}

interface EnvelopeRow {
  seq: number;
  service_id: string;
  envelope_id: string;
  thread_id: string | null;
  json: string;
  digest: string | null;
  trusted: number;
  reason: string | null;
  received_at: number;
}

const toService = (r: ServiceRow): ExternalService => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  kind: r.kind,
  readOnly: r.read_only === 1,
  origin: r.origin,
  createdAt: r.created_at,
});

const toEnvelope = (r: EnvelopeRow): BridgedEnvelope => ({
  seq: r.seq,
  serviceId: r.service_id,
  envelopeId: r.envelope_id,
  threadId: r.thread_id,
  json: r.json,
  digest: r.digest,
  trusted: r.trusted === 1,
  reason: r.reason,
  receivedAt: r.received_at,
});

export class SqliteServiceRegistryStore implements ServiceRegistryStore {
  readonly #db: Database.Database;
  readonly #appendPage: Database.Transaction<(page: BridgedPage) => number>;

  constructor(db: Database.Database) {
    this.#db = db;
    const insert = db.prepare(
      `INSERT INTO external_envelopes (service_id, envelope_id, thread_id, json, digest, trusted, reason, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (service_id, envelope_id) DO NOTHING`,
    );
    const cursor = db.prepare(
      `INSERT INTO external_cursors (service_id, feed, cursor, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (service_id, feed) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
    );
    this.#appendPage = db.transaction((page: BridgedPage) => {
      let stored = 0;
      for (const e of page.envelopes) {
        stored += insert.run(
          page.serviceId,
          e.envelopeId,
          e.threadId,
          e.json,
          e.digest,
          e.trusted ? 1 : 0,
          e.reason,
          e.receivedAt,
        ).changes;
      }
      cursor.run(page.serviceId, page.feed, page.cursor, page.at);
      return stored;
    });
  }

  async listServices(): Promise<ExternalService[]> {
    return (this.#db.prepare('SELECT * FROM external_services ORDER BY created_at, id').all() as ServiceRow[]).map(
      toService,
    );
  }

  async getService(id: string): Promise<ExternalService | undefined> {
    const row = this.#db.prepare('SELECT * FROM external_services WHERE id = ?').get(id) as ServiceRow | undefined;
    return row && toService(row);
  }

  async putService(s: ExternalService): Promise<ExternalService> {
    this.#db
      .prepare(
        `INSERT INTO external_services (id, name, base_url, kind, read_only, origin, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, kind = excluded.kind,
           read_only = excluded.read_only, origin = excluded.origin`,
      )
      .run(s.id, s.name, s.baseUrl, s.kind, s.readOnly ? 1 : 0, s.origin, s.createdAt);
    return (await this.getService(s.id))!;
  }

  async removeService(id: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM external_services WHERE id = ?').run(id).changes > 0;
  }

  async getCursor(serviceId: string, feed: string): Promise<string | undefined> {
    const row = this.#db
      .prepare('SELECT cursor FROM external_cursors WHERE service_id = ? AND feed = ?')
      .get(serviceId, feed) as { cursor: string } | undefined;
    return row?.cursor;
  }

  async appendBridgedPage(page: BridgedPage): Promise<{ readonly stored: number }> {
    return { stored: this.#appendPage.immediate(page) };
  }

  async findBridgedDigest(serviceId: string, envelopeId: string): Promise<string | null | undefined> {
    const row = this.#db
      .prepare('SELECT digest FROM external_envelopes WHERE service_id = ? AND envelope_id = ?')
      .get(serviceId, envelopeId) as { digest: string | null } | undefined;
    return row === undefined ? undefined : row.digest;
  }

  async listBridged(filter: {
    readonly serviceId?: string;
    readonly threadId?: string;
    readonly limit: number;
  }): Promise<BridgedEnvelope[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.serviceId !== undefined) {
      where.push('service_id = ?');
      args.push(filter.serviceId);
    }
    if (filter.threadId !== undefined) {
      where.push('thread_id = ?');
      args.push(filter.threadId);
    }
    const sql = `SELECT * FROM external_envelopes ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq LIMIT ?`;
    return (this.#db.prepare(sql).all(...args, filter.limit) as EnvelopeRow[]).map(toEnvelope);
  }

  async listWatched(): Promise<string[]> {
    return (this.#db.prepare('SELECT did FROM external_watched ORDER BY added_at, did').all() as { did: string }[]).map(
      (r) => r.did,
    );
  }

  async addWatched(did: string, at: number): Promise<void> {
    this.#db
      .prepare('INSERT INTO external_watched (did, added_at) VALUES (?, ?) ON CONFLICT (did) DO NOTHING')
      .run(did, at);
  }

  async removeWatched(did: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM external_watched WHERE did = ?').run(did).changes > 0;
  }

  async rememberNegotiation(serviceId: string, negotiationId: string, at: number): Promise<void> {
    this.#db
      .prepare(
        'INSERT INTO external_negotiations (service_id, negotiation_id, seen_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(serviceId, negotiationId, at);
  }

  async listNegotiations(serviceId?: string): Promise<{ serviceId: string; negotiationId: string; seenAt: number }[]> {
    const rows = (
      serviceId === undefined
        ? this.#db.prepare('SELECT * FROM external_negotiations ORDER BY seen_at DESC').all()
        : this.#db
            .prepare('SELECT * FROM external_negotiations WHERE service_id = ? ORDER BY seen_at DESC')
            .all(serviceId)
    ) as { service_id: string; negotiation_id: string; seen_at: number }[];
    return rows.map((r) => ({ serviceId: r.service_id, negotiationId: r.negotiation_id, seenAt: r.seen_at }));
  }
}
