// What each demo negotiating agent holds out for when someone outside the demo negotiates with it
// (answer-policy.ts). Sellers have floors, buyers ceilings; the asks are where they counter.
import type { AgentPolicy } from './answer-policy';

const price = { term: 'price_per_call_eur', label: 'price per call (EUR)', decimals: 4 } as const;
const fee = { term: 'fee_eur', label: 'fee (EUR)', decimals: 2 } as const;
const uptime = { term: 'uptime_percent', label: 'uptime (%)', decimals: 2 } as const;

export const AGENT_POLICIES = {
  buyer: { pricing: [{ ...price, kind: 'ceiling', limit: 0.0045, ask: 0.0035 }] },
  seller: { pricing: [{ ...price, kind: 'floor', limit: 0.0042, ask: 0.0052 }] },
  clinic: {},
  calendar: {},
  fleet: { 'service-level': [{ ...uptime, kind: 'floor', limit: 99.5, ask: 99.95 }] },
  lab: { 'data-access': [{ ...fee, kind: 'ceiling', limit: 2000, ask: 1500 }] },
  broker: { 'data-access': [{ ...fee, kind: 'floor', limit: 1500, ask: 2400 }] },
} as const satisfies Record<string, AgentPolicy>;

/** The opening offer the seller makes an operator in the guided demo (RFC 0002 §3.4's example terms). */
export const GUIDED_OPENING = {
  action: 'weather.forecast.detailed',
  calls_per_month: 120_000,
  price_per_call_eur: AGENT_POLICIES.seller.pricing[0].ask.toFixed(4),
  currency: 'EUR',
  payment_terms: 'net 30',
} as const;
