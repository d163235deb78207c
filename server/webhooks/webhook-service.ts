// Webhooks for one instance: WEBHOOKS written into the store, inbox changes enqueued as events
// (one transaction per event, webhook-store.ts), and the dispatcher sending the outbox. The routes
// use `admit` and `sendTest`; the runtime starts and stops it (runtime/start-switchboard.ts).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { InboxChange, InboxFeed } from '../inbox/inbox-feed';
import type { WebhookStore } from '../store/webhook-store';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher';
import { inboxEvent, testEvent } from './webhook-events';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';
import { envWebhookId, type ConfiguredWebhook } from './webhooks-config';

export interface WebhookServiceOptions {
  readonly store: WebhookStore;
  readonly clock: Clock;
  readonly sender?: WebhookSenderOptions;
  readonly dispatcher?: Partial<
    Pick<WebhookDispatcherOptions, 'retryDelaysMs' | 'concurrency' | 'pollMs' | 'random' | 'onError' | 'onAttempt'>
  >;
}

export class WebhookService {
  readonly sender: WebhookSender;
  readonly dispatcher: WebhookDispatcher;
  readonly #store: WebhookStore;
  readonly #clock: Clock;
  readonly #env = new Set<string>();
  readonly #onError: ((error: unknown) => void) | undefined;
  #unsubscribe: (() => void) | undefined;
  /** Inbox changes are enqueued one after another, in the feed's order. */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: WebhookServiceOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#onError = options.dispatcher?.onError;
    this.sender = new WebhookSender(options.sender);
    this.dispatcher = new WebhookDispatcher({
      store: options.store,
      clock: options.clock,
      sender: this.sender,
      trusted: (id) => this.#env.has(id),
      ...options.dispatcher,
    });
  }

  /** Writes the WEBHOOKS endpoints (their ids stable per URL) and removes env endpoints no longer listed. */
  async configure(configured: readonly ConfiguredWebhook[]): Promise<void> {
    const ids = new Set(configured.map((w) => envWebhookId(w.url)));
    for (const endpoint of await this.#store.listEndpoints())
      if (endpoint.origin === 'env' && !ids.has(endpoint.id)) await this.#store.removeEndpoint(endpoint.id);
    for (const w of configured) {
      const id = envWebhookId(w.url);
      const existing = await this.#store.getEndpoint(id);
      await this.#store.putEndpoint({
        id,
        url: w.url,
        events: w.events,
        kinds: w.kinds,
        secret: w.secret,
        origin: 'env',
        createdBy: null,
        createdAt: existing?.createdAt ?? this.#clock.now(),
        disabled: false,
      });
      this.#env.add(id);
    }
  }

  /** Whether a facilitator may register `url` (the address policy, webhook-sender.ts). */
  admit(url: string): Promise<void> {
    return this.sender.admit(url);
  }

  /** Enqueues a test event for one endpoint and wakes the dispatcher; undefined when the endpoint is unknown. */
  async sendTest(endpointId: string): Promise<{ eventId: string; deliveryId: string } | undefined> {
    const event = testEvent(endpointId, this.#clock.now(), randomUUID());
    const { deliveries } = await this.#store.enqueue(event, endpointId);
    if (deliveries.length === 0) return undefined;
    this.dispatcher.wake();
    return { eventId: event.id, deliveryId: deliveries[0]! };
  }

  /**
   * Starts sending, and enqueues the feed's changes when there is a feed; returns once subscribed.
   * What already waits on the feed is enqueued as added too: an event's id derives from its item
   * (webhook-events.ts), so an item sent before a restart is recorded once and not sent again,
   * while one that appeared before this subscription (or during the downtime) is not missed.
   */
  start(feed?: InboxFeed): void {
    this.dispatcher.start();
    if (!feed) return;
    this.#unsubscribe = feed.subscribe((change) => this.#enqueue(change));
    for (const item of feed.current()) this.#enqueue({ type: 'added', item });
  }

  #enqueue(change: InboxChange): void {
    const event = inboxEvent(change, this.#clock.now());
    if (!event) return;
    this.#chain = this.#chain
      .then(() => this.#store.enqueue(event))
      .then(({ deliveries }) => {
        if (deliveries.length > 0) this.dispatcher.wake();
      })
      .catch((error: unknown) => this.#onError?.(error));
  }

  /** Stops taking changes, lets what was taken reach the outbox, then stops the dispatcher and its pools. */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    await this.#chain;
    await this.dispatcher.stop();
    await this.sender.close();
  }
}
