// PostgreSQL side of service-registry-store.ts: a page of bridged envelopes and its feed's cursor
// in one transaction, so several instances bridging the same feed never store an envelope twice
// (the unique key decides) and a crash never moves a cursor past what was stored.
import type { Pool } from 'pg';
import type { BridgedEnvelope, BridgedPage, ExternalService, ServiceRegistryStore } from '../service-registry-store';
import { inTransaction } from './pg-pool';

interface ServiceRow {
  id: string;
  name: string;
  base_url: string;
  kind: 'relay' | 'negotiation';
  read_only: boolean;
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
  trusted: boolean;
  reason: string | null;
  received_at: number;
}

const toService = (r: ServiceRow): ExternalService => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  kind: r.kind,
  readOnly: r.read_only,
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
  trusted: r.trusted,
  reason: r.reason,
  receivedAt: r.received_at,
});

export class PgServiceRegistryStore implements ServiceRegistryStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async listServices(): Promise<ExternalService[]> {
    return (await this.#pool.query<ServiceRow>('SELECT * FROM external_services ORDER BY created_at, id')).rows.map(
      toService,
    );
  }

  async getService(id: string): Promise<ExternalService | undefined> {
    const row = (await this.#pool.query<ServiceRow>('SELECT * FROM external_services WHERE id = $1', [id])).rows[0];
    return row && toService(row);
  }

  async putService(s: ExternalService): Promise<ExternalService> {
    const { rows } = await this.#pool.query<ServiceRow>(
      `INSERT INTO external_services (id, name, base_url, kind, read_only, origin, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, kind = excluded.kind,
         read_only = excluded.read_only, origin = excluded.origin
       RETURNING *`,
      [s.id, s.name, s.baseUrl, s.kind, s.readOnly, s.origin, s.createdAt],
    );
    return toService(rows[0]!);
  }

  async removeService(id: string): Promise<boolean> {
    return ((await this.#pool.query('DELETE FROM external_services WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async getCursor(serviceId: string, feed: string): Promise<string | undefined> {
    const row = (
      await this.#pool.query<{ cursor: string }>(
        'SELECT cursor FROM external_cursors WHERE service_id = $1 AND feed = $2',
        [serviceId, feed],
      )
    ).rows[0];
    return row?.cursor;
  }

  async appendBridgedPage(page: BridgedPage): Promise<{ readonly stored: number }> {
    return inTransaction(this.#pool, async (client) => {
      let stored = 0;
      for (const e of page.envelopes) {
        const { rowCount } = await client.query(
          `INSERT INTO external_envelopes (service_id, envelope_id, thread_id, json, digest, trusted, reason, received_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (service_id, envelope_id) DO NOTHING`,
          [page.serviceId, e.envelopeId, e.threadId, e.json, e.digest, e.trusted, e.reason, e.receivedAt],
        );
        stored += rowCount ?? 0;
      }
      await client.query(
        `INSERT INTO external_cursors (service_id, feed, cursor, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (service_id, feed) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
        [page.serviceId, page.feed, page.cursor, page.at],
      );
      return { stored };
    });
  }

  async findBridgedDigest(serviceId: string, envelopeId: string): Promise<string | null | undefined> {
    const row = (
      await this.#pool.query<{ digest: string | null }>(
        'SELECT digest FROM external_envelopes WHERE service_id = $1 AND envelope_id = $2',
        [serviceId, envelopeId],
      )
    ).rows[0];
    return row === undefined ? undefined : row.digest;
  }

  async listBridged(filter: {
    readonly serviceId?: string;
    readonly threadId?: string;
    readonly limit: number;
  }): Promise<BridgedEnvelope[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.serviceId !== undefined) where.push(`service_id = $${args.push(filter.serviceId)}`);
    if (filter.threadId !== undefined) where.push(`thread_id = $${args.push(filter.threadId)}`);
    const sql = `SELECT * FROM external_envelopes ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq LIMIT $${args.push(filter.limit)}`;
    return (await this.#pool.query<EnvelopeRow>(sql, args)).rows.map(toEnvelope);
  }

  async listWatched(): Promise<string[]> {
    return (
      await this.#pool.query<{ did: string }>('SELECT did FROM external_watched ORDER BY added_at, did')
    ).rows.map((r) => r.did);
  }

  async addWatched(did: string, at: number): Promise<void> {
    await this.#pool.query(
      'INSERT INTO external_watched (did, added_at) VALUES ($1, $2) ON CONFLICT (did) DO NOTHING',
      [did, at],
    );
  }

  async removeWatched(did: string): Promise<boolean> {
    return ((await this.#pool.query('DELETE FROM external_watched WHERE did = $1', [did])).rowCount ?? 0) > 0;
  }

  async rememberNegotiation(serviceId: string, negotiationId: string, at: number): Promise<void> {
    await this.#pool.query(
      'INSERT INTO external_negotiations (service_id, negotiation_id, seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [serviceId, negotiationId, at],
    );
  }

  async listNegotiations(serviceId?: string): Promise<{ serviceId: string; negotiationId: string; seenAt: number }[]> {
    const { rows } =
      serviceId === undefined
        ? await this.#pool.query<{ service_id: string; negotiation_id: string; seen_at: number }>(
            'SELECT * FROM external_negotiations ORDER BY seen_at DESC',
          )
        : await this.#pool.query<{ service_id: string; negotiation_id: string; seen_at: number }>(
            'SELECT * FROM external_negotiations WHERE service_id = $1 ORDER BY seen_at DESC',
            [serviceId],
          );
    return rows.map((r) => ({ serviceId: r.service_id, negotiationId: r.negotiation_id, seenAt: r.seen_at }));
  }
}
