// How a demo negotiating agent answers a negotiation someone outside the demo opened with it
// (docs/decisions-demo.md §13): co-sign an agreement it is asked to co-sign; take an offer that
// already meets what it asks for; otherwise counter once with what it asks for, then accept
// terms within its limits or reject, saying which term and which limit. Pure: the responder
// reads the state, asks this, and signs what it says.
import { availableActions } from '@shared/negotiation/available-actions';
import type { Terms } from '@shared/negotiation/primitives';
import { latestProposal, type NegotiationState } from '@shared/negotiation/state';

/** One numeric term an agent cares about. */
export interface TermLimit {
  readonly term: string;
  /** In words, for a rejection's reason: "price per call (EUR)". */
  readonly label: string;
  /** `floor`: it takes no less (a seller's price); `ceiling`: it pays no more (a buyer's). */
  readonly kind: 'floor' | 'ceiling';
  readonly limit: number;
  /** What it counters with. */
  readonly ask: number;
  /** Decimal places when the term is written as a decimal string ("0.0050"), as RFC 0002 §3.4's price is. */
  readonly decimals: number;
}

/** An agent's limits by negotiation category; a category it has none for is accepted as offered. */
export type AgentPolicy = Readonly<Record<string, readonly TermLimit[]>>;

export type Answer =
  | { readonly kind: 'wait' }
  | { readonly kind: 'cosign' }
  | { readonly kind: 'accept' }
  | { readonly kind: 'counter'; readonly terms: Terms }
  | { readonly kind: 'reject'; readonly reason: string };

const numberOf = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

const meets = (l: TermLimit, value: number, bound: number) => (l.kind === 'floor' ? value >= bound : value <= bound);

const written = (l: TermLimit, value: number) =>
  l.decimals > 0 ? value.toFixed(l.decimals) : String(Math.round(value));

export function answerNegotiation(state: NegotiationState, me: string, now: number, policy: AgentPolicy): Answer {
  const actions = availableActions(state, me, now);
  if (actions.includes('cosign')) return { kind: 'cosign' };
  const latest = latestProposal(state);
  if (!actions.includes('accept') || latest === null) return { kind: 'wait' };
  const limits = policy[state.category] ?? [];
  const values = limits.map((l) => ({ l, value: numberOf(latest.terms[l.term]) }));
  if (values.every(({ l, value }) => value !== undefined && meets(l, value, l.ask))) return { kind: 'accept' };

  const countered = state.history.some((h) => h.type === 'propose' && h.document.from === me);
  if (!countered && actions.includes('propose')) {
    const terms: Record<string, unknown> = { ...latest.terms };
    for (const { l, value } of values)
      if (value === undefined || !meets(l, value, l.ask))
        // A decimal string stays a string (§3.4 writes prices so), a number stays a number.
        terms[l.term] = typeof latest.terms[l.term] === 'number' ? l.ask : written(l, l.ask);
    return { kind: 'counter', terms: terms as Terms };
  }
  const short = values.find(({ l, value }) => value === undefined || !meets(l, value, l.limit));
  if (!short) return { kind: 'accept' };
  const { l, value } = short;
  return {
    kind: 'reject',
    reason:
      value === undefined
        ? `No ${l.label} in the offer; I need one to agree.`
        : `The ${l.label} of ${written(l, value)} is ${l.kind === 'floor' ? 'below the least I take' : 'above the most I pay'}, ${written(l, l.limit)}.`,
  };
}
