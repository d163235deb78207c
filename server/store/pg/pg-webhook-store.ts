// PostgreSQL side of webhook-store.ts: an event's rows in one transaction behind its unique id,
// and rows leased with FOR UPDATE SKIP LOCKED, so several instances on one database never send
// the same row while its lease lasts.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  endpointMatches,
  WEBHOOK_PRUNE_BATCH,
  type AttemptOutcome,
  type LeasedDelivery,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookStore,
} from '../webhook-store';
import { inTransaction } from './pg-pool';

interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  kinds: string[];
  secret: string;
  origin: 'env' | 'console';
  created_by: string | null;
  created_at: number;
  disabled: boolean;
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
  created_at: number;
  updated_at: number | null;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: r.events,
  kinds: r.kinds,
  secret: r.secret,
  origin: r.origin,
  createdBy: r.created_by,
  createdAt: r.created_at,
  disabled: r.disabled,
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

export class PgWebhookStore implements WebhookStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async listEndpoints(): Promise<WebhookEndpoint[]> {
    return (await this.#pool.query<EndpointRow>('SELECT * FROM webhook_endpoints ORDER BY created_at, id')).rows.map(
      toEndpoint,
    );
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const row = (await this.#pool.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1', [id])).rows[0];
    return row && toEndpoint(row);
  }

  async putEndpoint(e: WebhookEndpoint): Promise<WebhookEndpoint> {
    const { rows } = await this.#pool.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, url, events, kinds, secret, origin, created_by, created_at, disabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, events = excluded.events, kinds = excluded.kinds,
         secret = excluded.secret, origin = excluded.origin, created_by = excluded.created_by,
         disabled = excluded.disabled
       RETURNING *`,
      [e.id, e.url, [...e.events], [...e.kinds], e.secret, e.origin, e.createdBy, e.createdAt, e.disabled],
    );
    return toEndpoint(rows[0]!);
  }

  async removeEndpoint(id: string): Promise<boolean> {
    return ((await this.#pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async enqueue(
    event: WebhookEvent,
    endpointId?: string,
  ): Promise<{ readonly deliveries: readonly string[]; readonly duplicate: boolean }> {
    return inTransaction(this.#pool, async (client) => {
      // KEY SHARE: an endpoint deleted meanwhile waits for this transaction, never half-enqueued.
      const endpoints = (
        endpointId === undefined
          ? await client.query<EndpointRow>('SELECT * FROM webhook_endpoints FOR KEY SHARE')
          : await client.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1 FOR KEY SHARE', [endpointId])
      ).rows
        .map(toEndpoint)
        .filter((e) => (endpointId === undefined ? endpointMatches(e, event) : true));
      if (endpoints.length === 0) return { deliveries: [], duplicate: false };
      const recorded = await client.query(
        'INSERT INTO webhook_events (id, type, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
        [event.id, event.type, event.createdAt],
      );
      if ((recorded.rowCount ?? 0) === 0) return { deliveries: [], duplicate: true };
      const ids: string[] = [];
      for (const endpoint of endpoints) {
        const id = `dlv_${randomUUID()}`;
        await client.query(
          `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, payload, next_attempt_at, state, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', $6)`,
          [id, endpoint.id, event.id, event.type, Buffer.from(event.payload), event.createdAt],
        );
        ids.push(id);
      }
      return { deliveries: ids, duplicate: false };
    });
  }

  async claimDue(now: number, leaseUntil: number, limit: number, lease: string): Promise<LeasedDelivery[]> {
    const { rows } = await this.#pool.query<DeliveryRow & { url: string; secret: string }>(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
           AND NOT e.disabled
         ORDER BY d.next_attempt_at, d.created_at, d.id LIMIT $2
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries w SET lease = $3, lease_until = $4 FROM due, webhook_endpoints e
       WHERE w.id = due.id AND e.id = w.endpoint_id
       RETURNING w.*, e.url, e.secret`,
      [now, limit, lease, leaseUntil],
    );
    return rows
      .map((r) => ({ ...toDelivery(r), lease, url: r.url, secret: r.secret }))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async settle(deliveryId: string, lease: string, o: AttemptOutcome): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE webhook_deliveries SET state = $1, attempts = attempts + 1, last_status = $2, last_error = $3,
         next_attempt_at = $4, updated_at = $5, lease = NULL, lease_until = NULL
       WHERE id = $6 AND lease = $7 AND state = 'pending'`,
      [
        o.state,
        o.status,
        o.state === 'delivered' ? null : o.error,
        o.state === 'pending' ? o.nextAttemptAt : o.at,
        o.at,
        deliveryId,
        lease,
      ],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    const { rows } = await this.#pool.query<DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
      [endpointId, limit],
    );
    return rows.map(toDelivery);
  }

  async nextDue(): Promise<number | undefined> {
    const { rows } = await this.#pool.query<{ due: number | null }>(
      `SELECT min(greatest(d.next_attempt_at, coalesce(d.lease_until, 0))) AS due FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.state = 'pending' AND NOT e.disabled`,
    );
    return rows[0]?.due ?? undefined;
  }

  async prune(before: number): Promise<{ deliveries: number; events: number }> {
    const batches = async (statement: string) => {
      let total = 0;
      for (;;) {
        const { rowCount } = await this.#pool.query(statement, [before, WEBHOOK_PRUNE_BATCH]);
        total += rowCount ?? 0;
        if ((rowCount ?? 0) < WEBHOOK_PRUNE_BATCH) return total;
      }
    };
    // Rows a dispatcher holds under a lease are pending, so never among these.
    const deliveries = await batches(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND created_at < $1 LIMIT $2)`,
    );
    const events = await batches(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT e.id FROM webhook_events e WHERE e.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    );
    return { deliveries, events };
  }
}
