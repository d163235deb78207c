// Outgoing webhooks: the endpoints facilitators or WEBHOOKS registered, and the outbox, one row per
// delivery of one event to one endpoint (decisions-server.md, "Webhooks"). Kept apart from
// store.ts so each engine implements it on its own (sqlite-webhook-store.ts, pg-webhook-store.ts),
// both held to webhook-store-suite.ts.
//
// Delivery is at least once: a row is leased to one dispatcher before it is sent, and a sender
// that dies after the receiver got the request but before `settle` leaves the row to be sent again
// when the lease runs out. The delivery id stays the same across attempts, so a receiver dedupes.

/** Where an endpoint comes from: the WEBHOOKS variable (env) or the settings screen (console). */
export type WebhookOrigin = 'env' | 'console';

export interface WebhookEndpoint {
  readonly id: string;
  /** Absolute http(s) URL, at most 2048 characters. */
  readonly url: string;
  /** The event types it receives (`inbox.item.added`, `inbox.item.removed`). */
  readonly events: readonly string[];
  /** The inbox item kinds it receives (INBOX_KINDS); an event of another kind is not enqueued for it. */
  readonly kinds: readonly string[];
  /** The signing key (`whsec_…`); the API shows it once, at creation. */
  readonly secret: string;
  readonly origin: WebhookOrigin;
  /** The facilitator's DID; null for env endpoints. */
  readonly createdBy: string | null;
  readonly createdAt: number;
  /** A disabled endpoint is enqueued nothing and its pending rows wait. */
  readonly disabled: boolean;
}

/** One event, as every matching endpoint will receive it. */
export interface WebhookEvent {
  /** Unique per event: enqueueing the same id again adds nothing. */
  readonly id: string;
  readonly type: string;
  /** The inbox item's kind, matched against the endpoints' `kinds`; null for a test event. */
  readonly kind: string | null;
  /** The exact body every receiver gets. */
  readonly payload: Uint8Array;
  readonly createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  /** Sent as Switchboard-Delivery: the same on every attempt, for the receiver's idempotency. */
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly payload: Uint8Array;
  readonly attempts: number;
  /** When a pending row is due next (milliseconds since the epoch). */
  readonly nextAttemptAt: number;
  readonly state: DeliveryState;
  /** The receiver's last HTTP status; null when there was none (refused, timed out). */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: number;
  /** When the last attempt ended; null before the first. */
  readonly updatedAt: number | null;
}

/** A row leased to one dispatcher, with what sending it needs. */
export interface LeasedDelivery extends WebhookDelivery {
  readonly lease: string;
  readonly url: string;
  readonly secret: string;
}

export type AttemptOutcome =
  | { readonly state: 'delivered'; readonly status: number; readonly at: number }
  | {
      readonly state: 'pending';
      readonly status: number | null;
      readonly error: string;
      readonly at: number;
      readonly nextAttemptAt: number;
    }
  | { readonly state: 'failed'; readonly status: number | null; readonly error: string; readonly at: number };

export interface WebhookStore {
  listEndpoints(): Promise<WebhookEndpoint[]>;
  getEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** Inserts, or replaces the endpoint with the same id (env endpoints are written at each start). */
  putEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint>;
  /** Removes the endpoint and its outbox rows; false when unknown. */
  removeEndpoint(id: string): Promise<boolean>;

  /**
   * In one transaction: records the event id and adds a pending row, due at once, for every
   * enabled endpoint whose `events` and `kinds` match (or only for `endpointId`, whatever its
   * filters: a test event). An event id seen before enqueues nothing (`duplicate`). An event
   * no endpoint takes writes nothing, not even its id: a console without webhooks keeps no rows.
   */
  enqueue(
    event: WebhookEvent,
    endpointId?: string,
  ): Promise<{ readonly deliveries: readonly string[]; readonly duplicate: boolean }>;
  /**
   * Leases up to `limit` pending rows due at `now` of enabled endpoints, whose lease (if any)
   * ran out, oldest due first, to `lease` until `leaseUntil`. Two callers never get the same row
   * while its lease lasts.
   */
  claimDue(now: number, leaseUntil: number, limit: number, lease: string): Promise<LeasedDelivery[]>;
  /** Records an attempt's outcome and frees the row; false when the lease was lost (or the row is gone). */
  settle(deliveryId: string, lease: string, outcome: AttemptOutcome): Promise<boolean>;
  /** The endpoint's rows, newest first. */
  listDeliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /** When the earliest pending row of an enabled endpoint can be claimed, if any (the dispatcher's next wake-up). */
  nextDue(): Promise<number | undefined>;
  /**
   * Deletes delivered and failed rows created before `before`, then recorded event ids created
   * before it that no row names any more (decisions-server.md §75); pending rows are never
   * deleted. In batches, so an enqueue waits for one batch at most. Answers how many of each.
   */
  prune(before: number): Promise<{ readonly deliveries: number; readonly events: number }>;
}

/** Settled deliveries and their event ids are kept this long (decisions-server.md §75). */
export const WEBHOOK_KEPT_MS = 7 * 24 * 3_600_000;
/** Rows deleted per statement by `prune`. */
export const WEBHOOK_PRUNE_BATCH = 1_000;

/** Whether `endpoint` takes `event` (a test event goes only where it is sent, so never here). */
export const endpointMatches = (endpoint: WebhookEndpoint, event: WebhookEvent): boolean =>
  !endpoint.disabled &&
  event.kind !== null &&
  endpoint.events.includes(event.type) &&
  endpoint.kinds.includes(event.kind);
