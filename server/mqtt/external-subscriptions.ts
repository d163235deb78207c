// What the server subscribes to on an external broker, and which subscription a delivered copy
// came through. Every instance subscribes `rooms/#` (and whatever its handlers need) for its
// consoles and presence; clustered, it also joins an MQTT 5 shared subscription on the agents'
// topics, and subscription identifiers tell the two copies apart (docs/decisions-cluster.md).
import type { IPublishPacket, MqttClient } from 'mqtt';
import { AGENT_WRITABLE_FILTERS, wireFilters } from './external-topics';
import { filterCovers } from './topic-filter';
import type { LineLogger } from '../logging/logger';

/** Subscription identifiers (MQTT 5 §3.8.2.1.2): which subscription a delivered copy came through. */
const FANOUT_SUBSCRIPTION = 1;
const SHARED_SUBSCRIPTION = 2;

export interface SubscriptionsOptions {
  /** The shared-subscription group (several instances); undefined: one instance. */
  readonly shareGroup: string | undefined;
  /** Subscribed at every connect. */
  readonly filters: readonly string[];
  readonly log: LineLogger;
  /** True once the connection is being closed on purpose: failures are not logged then. */
  readonly closing: () => boolean;
}

/** Which copy a delivery is: the fan-out one every instance gets, the shared one, or both. */
export interface CopyKind {
  readonly fanout: boolean;
  readonly shared: boolean;
}

export class ExternalSubscriptions {
  readonly #client: MqttClient;
  readonly #shareGroup: string | undefined;
  readonly #log: LineLogger;
  readonly #closing: () => boolean;
  /** Filters subscribed on the broker (re-sent at every connect). */
  readonly #brokerFilters = new Set<string>();
  /** The broker refused the shared subscription: every copy is this instance's to record and decide. */
  #sharedRefused = false;
  /** Set once this instance stopped taking its share (it does not join again at a reconnect). */
  #leftShareGroup = false;

  constructor(client: MqttClient, options: SubscriptionsOptions) {
    this.#client = client;
    this.#shareGroup = options.shareGroup;
    this.#log = options.log;
    this.#closing = options.closing;
    for (const f of options.filters) this.#brokerFilters.add(f);
  }

  /** Every subscription, at a connect: the shared ones (unless left) and every broker filter. */
  async subscribeAll(): Promise<void> {
    const shared =
      this.#shareGroup === undefined || this.#leftShareGroup
        ? []
        : AGENT_WRITABLE_FILTERS.map((f) => this.#subscribeShared(f));
    await Promise.all([...[...this.#brokerFilters].map((f) => this.#subscribe(f)), ...shared]);
  }

  /** Subscribes what a handler's filter needs on the broker, unless a subscription covers it already. */
  cover(filter: string): void {
    for (const wire of wireFilters(filter)) {
      if ([...this.#brokerFilters].some((b) => filterCovers(b, wire))) continue;
      this.#brokerFilters.add(wire);
      void this.#subscribe(wire);
    }
  }

  async #subscribe(filter: string): Promise<void> {
    if (!this.#client.connected) return; // sent at the next connect
    try {
      // No Local: the broker does not echo our own publishes (they are dispatched here, once).
      // Retain As Published: a retained publish is recognisable. Retain Handling 2: nothing
      // retained is replayed at subscribe time.
      const properties =
        this.#shareGroup === undefined ? {} : { properties: { subscriptionIdentifier: FANOUT_SUBSCRIPTION } };
      const granted = await this.#client.subscribeAsync(filter, { qos: 1, nl: true, rap: true, rh: 2, ...properties });
      const code = granted[0]?.qos ?? 0x80;
      if (code >= 0x80) this.#log('MQTT broker refused a subscription', { filter, reasonCode: code });
    } catch (error) {
      if (!this.#closing()) this.#log('MQTT subscription failed', { filter, reason: (error as Error).message });
    }
  }

  /**
   * Joins the shared subscription on one agent topic filter. No Local is a protocol error on a
   * shared subscription (MQTT 5 §3.8.3.1); none is needed: the server publishes nothing there
   * but empty retained clears, which are dropped as retained.
   */
  async #subscribeShared(filter: string): Promise<void> {
    const shared = `$share/${this.#shareGroup}/${filter}`;
    if (!this.#client.connected) return;
    try {
      const granted = await this.#client.subscribeAsync(shared, {
        qos: 1,
        rap: true,
        properties: { subscriptionIdentifier: SHARED_SUBSCRIPTION },
      });
      const code = granted[0]?.qos ?? 0x80;
      if (code >= 0x80) this.#sharedRefusedBy(shared, String(code));
    } catch (error) {
      // mqtt.js rejects a SUBACK refusal (with the packet) rather than resolving with its code.
      if ((error as { packet?: { cmd?: string } }).packet?.cmd === 'suback')
        this.#sharedRefusedBy(shared, (error as Error).message);
      else if (!this.#closing())
        this.#log('MQTT subscription failed', { filter: shared, reason: (error as Error).message });
    }
  }

  /**
   * A broker role from before clusters (no `$share` ACL): rather than record and decide nothing,
   * this instance records and decides every copy it gets, which is right for one instance only.
   */
  #sharedRefusedBy(filter: string, why: string): void {
    if (!this.#sharedRefused)
      this.#log(
        'MQTT broker refused the shared subscription: this instance now records and decides every candidate itself, so run only one; run `npm run cli -- broker setup` again to allow several',
        { filter, reason: why },
      );
    this.#sharedRefused = true;
  }

  /**
   * Which copy this is. Without a share group, the only one. A broker may merge overlapping
   * subscriptions into one delivery carrying both identifiers, or send none at all: then the copy
   * is treated as both (recorded here, never lost; at worst recorded by two instances).
   */
  copyKind(packet: IPublishPacket): CopyKind {
    if (this.#shareGroup === undefined || this.#sharedRefused) return { fanout: true, shared: true };
    const raw = packet.properties?.subscriptionIdentifier;
    const ids = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    if (ids.length === 0) return { fanout: true, shared: true };
    return { fanout: ids.includes(FANOUT_SUBSCRIPTION), shared: ids.includes(SHARED_SUBSCRIPTION) };
  }

  /** Stops taking a share of the agents' messages, for good (not joined again at a reconnect). */
  async leaveShareGroup(): Promise<void> {
    if (this.#shareGroup === undefined || this.#leftShareGroup) return;
    this.#leftShareGroup = true;
    if (!this.#client.connected) return;
    const shared = AGENT_WRITABLE_FILTERS.map((f) => `$share/${this.#shareGroup}/${f}`);
    await this.#client
      .unsubscribeAsync(shared)
      .catch((error: unknown) =>
        this.#log('could not leave the shared subscription', { reason: (error as Error).message }),
      );
  }
}
