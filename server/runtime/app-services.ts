// The services the HTTP app serves, built once over a store and a clock. The runtime builds them
// for each instance; tests that drive the app on its own build them through the same function
// (test-support/test-app.ts), so the app never builds a service itself (decisions-server.md §46).
import type { AppOptions } from '../app';
import { OperatorPresence } from '../auth/operator-presence';
import type { Clock } from '../clock';
import { DidVerifier } from '../crypto/node-verifier';
import type { RelayBridge } from '../external/relay-bridge';
import { NegotiationService } from '../negotiation/negotiation-service';
import { OacopReadModels } from '../oacop/oacop-read-models';
import { createRelayServices, watchStoreHead, type RelayServices } from '../relay/relay-services';
import type { PresenceTracker } from '../rooms/presence-tracker';
import type { Store } from '../store/store';
import { WebhookService } from '../webhooks/webhook-service';

export type AppServices = Pick<
  AppOptions,
  | 'store'
  | 'clock'
  | 'verifier'
  | 'relay'
  | 'negotiations'
  | 'oacop'
  | 'bridge'
  | 'guidedDemo'
  | 'operatorPresence'
  | 'webhooks'
>;

export interface ServiceParts {
  readonly store: Store;
  readonly clock: Clock;
  /** The external-services bridge: started by the runtime (external/start-bridge.ts), idle in tests. */
  readonly bridge: RelayBridge;
  /** Agents' presence from the broker, for the directory; none without a broker. */
  readonly presence?: PresenceTracker;
  /** Outgoing webhooks: started by the runtime (its configuration), idle in tests; built here when absent. */
  readonly webhooks?: WebhookService;
  /** Whether the demo is on (POST /seed is open then) and its seed. */
  readonly demo: { readonly on: boolean; readonly seed: number };
}

/** One Ed25519 verifier (with its key cache) for the relay, negotiations and sign-in. */
export function buildAppServices(parts: ServiceParts): AppServices {
  const { store, clock, bridge } = parts;
  const verifier = new DidVerifier();
  const relay = createRelayServices({
    store: store.relay,
    clock,
    verifier,
    ...(parts.presence ? { presence: parts.presence } : {}),
  });
  return {
    store,
    clock,
    verifier,
    relay: { services: relay, demo: parts.demo.on, demoSeed: parts.demo.seed },
    negotiations: new NegotiationService({ store: store.negotiations, clock, verifier }),
    oacop: new OacopReadModels(store.relay),
    bridge,
    guidedDemo: { port: undefined },
    operatorPresence: new OperatorPresence(clock),
    webhooks: parts.webhooks ?? new WebhookService({ store: store.webhooks, clock }),
  };
}

/**
 * Every instance's own: the store-head watch (its long-polls) and the external-services bridge
 * (idempotent by envelope id, and its status board is this instance's); returns how to stop them.
 */
export function startRelayTimers(relay: RelayServices, bridge: { stop(): Promise<void> }): () => void {
  const stopWatch = watchStoreHead(relay);
  return () => {
    void bridge.stop();
    stopWatch();
    relay.feed.close();
  };
}
