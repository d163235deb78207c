// SQLite side of webhook-store.ts: one connection, so an IMMEDIATE transaction is enough to make
// an event's rows appear together and to lease a row to one dispatcher.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  AttemptOutcome,
  LeasedDelivery,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookStore,
} from '../webhook-store';
import { endpointMatches, WEBHOOK_PRUNE_BATCH } from '../webhook-store';

interface EndpointRow {
  id: string;
  url: string;
  events: string;
  kinds: string;
  secret: string;
  origin: 'env' | 'console';
  created_by: string | null;
  created_at: number;
  disabled: number;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: Buffer;
  attempts: number;
  next_attempt_at: number;
  state: 'pending' | 'delivered' | 'failed';
  last_status: number | null;
  last_error: string | null;
  lease: string | null;
  created_at: number;
  updated_at: number | null;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  kinds: JSON.parse(r.kinds) as string[],
  secret: r.secret,
  origin: r.origin,
  createdBy: r.created_by,
  createdAt: r.created_at,
  disabled: r.disabled === 1,
});

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  eventType: r.event_type,
  payload: new Uint8Array(r.payload),
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  state: r.state,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqliteWebhookStore implements WebhookStore {
  readonly #db: Database.Database;
  readonly #enqueue: Database.Transaction<(event: WebhookEvent, endpointId?: string) => string[] | undefined>;
  readonly #claim: Database.Transaction<
    (now: number, leaseUntil: number, limit: number, lease: string) => LeasedDelivery[]
  >;

  constructor(db: Database.Database) {
    this.#db = db;
    const recordEvent = db.prepare(
      'INSERT INTO webhook_events (id, type, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
    const insert = db.prepare(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, payload, next_attempt_at, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)`,
    );
    this.#enqueue = db.transaction((event: WebhookEvent, endpointId?: string) => {
      const endpoints = (
        endpointId === undefined
          ? (db.prepare('SELECT * FROM webhook_endpoints').all() as EndpointRow[])
          : (db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?').all(endpointId) as EndpointRow[])
      )
        .map(toEndpoint)
        .filter((e) => (endpointId === undefined ? endpointMatches(e, event) : true));
      if (endpoints.length === 0) return [];
      if (recordEvent.run(event.id, event.type, event.createdAt).changes === 0) return undefined;
      const ids: string[] = [];
      for (const endpoint of endpoints) {
        const id = `dlv_${randomUUID()}`;
        insert.run(id, endpoint.id, event.id, event.type, Buffer.from(event.payload), event.createdAt, event.createdAt);
        ids.push(id);
      }
      return ids;
    });
    const due = db.prepare(
      `SELECT d.*, e.url, e.secret FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)
         AND e.disabled = 0
       ORDER BY d.next_attempt_at, d.created_at, d.id LIMIT ?`,
    );
    const take = db.prepare('UPDATE webhook_deliveries SET lease = ?, lease_until = ? WHERE id = ?');
    this.#claim = db.transaction((now: number, leaseUntil: number, limit: number, lease: string) => {
      const rows = due.all(now, now, limit) as (DeliveryRow & { url: string; secret: string })[];
      return rows.map((r) => {
        take.run(lease, leaseUntil, r.id);
        return { ...toDelivery(r), lease, url: r.url, secret: r.secret };
      });
    });
  }

  async listEndpoints(): Promise<WebhookEndpoint[]> {
    return (this.#db.prepare('SELECT * FROM webhook_endpoints ORDER BY created_at, id').all() as EndpointRow[]).map(
      toEndpoint,
    );
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const row = this.#db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?').get(id) as EndpointRow | undefined;
    return row && toEndpoint(row);
  }

  async putEndpoint(e: WebhookEndpoint): Promise<WebhookEndpoint> {
    this.#db
      .prepare(
        `INSERT INTO webhook_endpoints (id, url, events, kinds, secret, origin, created_by, created_at, disabled)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET url = excluded.url, events = excluded.events, kinds = excluded.kinds,
           secret = excluded.secret, origin = excluded.origin, created_by = excluded.created_by,
           disabled = excluded.disabled`,
      )
      .run(
        e.id,
        e.url,
        JSON.stringify(e.events),
        JSON.stringify(e.kinds),
        e.secret,
        e.origin,
        e.createdBy,
        e.createdAt,
        e.disabled ? 1 : 0,
      );
    return (await this.getEndpoint(e.id))!;
  }

  async removeEndpoint(id: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes > 0;
  }

  async enqueue(
    event: WebhookEvent,
    endpointId?: string,
  ): Promise<{ readonly deliveries: readonly string[]; readonly duplicate: boolean }> {
    const ids = this.#enqueue.immediate(event, endpointId);
    return { deliveries: ids ?? [], duplicate: ids === undefined };
  }

  async claimDue(now: number, leaseUntil: number, limit: number, lease: string): Promise<LeasedDelivery[]> {
    return this.#claim.immediate(now, leaseUntil, limit, lease);
  }

  async settle(deliveryId: string, lease: string, o: AttemptOutcome): Promise<boolean> {
    return (
      this.#db
        .prepare(
          `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
             next_attempt_at = ?, updated_at = ?, lease = NULL, lease_until = NULL
           WHERE id = ? AND lease = ? AND state = 'pending'`,
        )
        .run(
          o.state,
          o.status,
          o.state === 'delivered' ? null : o.error,
          o.state === 'pending' ? o.nextAttemptAt : o.at,
          o.at,
          deliveryId,
          lease,
        ).changes > 0
    );
  }

  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    return (
      this.#db
        .prepare('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?')
        .all(endpointId, limit) as DeliveryRow[]
    ).map(toDelivery);
  }

  async nextDue(): Promise<number | undefined> {
    const row = this.#db
      .prepare(
        `SELECT min(max(d.next_attempt_at, coalesce(d.lease_until, 0))) AS due FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.state = 'pending' AND e.disabled = 0`,
      )
      .get() as { due: number | null };
    return row.due ?? undefined;
  }

  async prune(before: number): Promise<{ deliveries: number; events: number }> {
    const batches = async (statement: string) => {
      let total = 0;
      for (;;) {
        const { changes } = this.#db.prepare(statement).run(before, WEBHOOK_PRUNE_BATCH);
        total += changes;
        if (changes < WEBHOOK_PRUNE_BATCH) return total;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const deliveries = await batches(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ? LIMIT ?)`,
    );
    const events = await batches(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT e.id FROM webhook_events e WHERE e.created_at < ?
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT ?)`,
    );
    return { deliveries, events };
  }
}
