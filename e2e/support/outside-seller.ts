// A negotiation counterparty outside the demo, scripted by the journey over HTTP: the demo's own
// agents answer negotiations opened with them by themselves (decisions-demo.md §13).
import { webcrypto } from 'node:crypto';
import { NegotiationParty } from '../../agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../../server/demo/demo-identity';

export const outsideSeller = (baseUrl: string, seed: number): NegotiationParty =>
  new NegotiationParty(
    negotiationIdentity(seed, 'outside-seller', 'Outside Weather API'),
    fetch,
    baseUrl,
    Date.now,
    (n) => webcrypto.getRandomValues(new Uint8Array(n)),
  );
