// The gateway needs the broker and the broker's intake needs the gateway (candidates are decided
// before they are routed or acknowledged, decisions-server.md §30): the intake of either broker
// (runtime/broker-adapter.ts) gets this slot, and a candidate that arrives before the gateway is
// attached waits for it, in its order.
import type { BrokerMessage } from '../mqtt/broker-port';

interface Admits {
  admitCandidate(message: BrokerMessage): Promise<void>;
}

export interface LateGateway {
  readonly admitCandidate: (message: BrokerMessage) => Promise<void>;
  attach(gateway: Admits): void;
}

export function lateGateway(): LateGateway {
  let attached: Admits | undefined;
  let resolveAttached!: (gateway: Admits) => void;
  const whenAttached = new Promise<Admits>((resolve) => (resolveAttached = resolve));
  return {
    admitCandidate: (message) =>
      attached ? attached.admitCandidate(message) : whenAttached.then((gateway) => gateway.admitCandidate(message)),
    attach(gateway) {
      attached = gateway;
      resolveAttached(gateway);
    },
  };
}
