// The negotiation as stored and replayed: the RFC 0002 §3.2 status, what `open` fixed, and the
// full signed history (what GET /oap/negotiation/{id} returns). Everything else is derived
// from the history by the helpers below, so no fact is kept twice.
import { z } from 'zod';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { Agreement } from './agreement';
import { ConfidentialityClass, RegulatedObligation } from './confidentiality';
import { Acceptance, OpenDocument, Proposal, Rejection, Withdrawal } from './documents';
import type { NegotiationLimits } from './manifest';
import { Category, NegotiationId, PartyDid, ProposalId, Signature, Timestamp, toTimestamp } from './primitives';

export const NegotiationStatus = z.enum([
  'OPEN',
  'PROPOSED',
  'COUNTERED',
  'ACCEPTED',
  'REJECTED',
  'EXPIRED',
  'WITHDRAWN',
]);
export type NegotiationStatus = z.infer<typeof NegotiationStatus>;

export const TERMINAL_STATUSES: readonly NegotiationStatus[] = ['ACCEPTED', 'REJECTED', 'EXPIRED', 'WITHDRAWN'];
export const isTerminal = (status: NegotiationStatus): boolean => TERMINAL_STATUSES.includes(status);

/** One applied step; `received_at` is the Tool's clock when it was applied. */
export const HistoryItem = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('open'), document: OpenDocument, received_at: Timestamp }),
  z.strictObject({ type: z.literal('propose'), document: Proposal, received_at: Timestamp }),
  z.strictObject({ type: z.literal('accept'), document: Acceptance, received_at: Timestamp }),
  z.strictObject({ type: z.literal('reject'), document: Rejection, received_at: Timestamp }),
  z.strictObject({ type: z.literal('withdraw'), document: Withdrawal, received_at: Timestamp }),
  z.strictObject({ type: z.literal('expire'), proposal_id: ProposalId, received_at: Timestamp }),
  z.strictObject({ type: z.literal('cosign'), by: PartyDid, signature: Signature, received_at: Timestamp }),
]);
export type HistoryItem = z.infer<typeof HistoryItem>;

export const NegotiationState = z.strictObject({
  negotiation_id: NegotiationId,
  status: NegotiationStatus,
  parties: z.tuple([PartyDid, PartyDid]),
  opened_by: PartyDid,
  category: Category,
  /** The effective limit: the open document's, capped by the Tool's manifest. */
  max_rounds: z.int().min(1),
  confidentiality: ConfidentialityClass,
  regulated_obligations: z.array(RegulatedObligation),
  history: z.array(HistoryItem).min(1),
  agreement: Agreement.nullable(),
  updated_at: Timestamp,
});
export type NegotiationState = z.infer<typeof NegotiationState>;

export interface TransitionContext {
  /** The Tool's clock, milliseconds since the epoch (injected: the core never reads a clock). */
  readonly now: number;
  readonly limits: NegotiationLimits;
  /**
   * The Ed25519 check by signer DID; noble by default. The server injects node:crypto with cached
   * keys (server/crypto/node-verifier.ts): same verdicts, several times faster.
   */
  readonly verify?: DidSignatureCheck;
}

export type NegotiationEvent =
  | { readonly type: 'propose'; readonly document: unknown }
  | { readonly type: 'accept'; readonly document: unknown }
  | { readonly type: 'reject'; readonly document: unknown }
  | { readonly type: 'withdraw'; readonly document: unknown }
  /** Time-driven, unsigned: the latest proposal's `valid_until` has passed (see expire.ts). */
  | { readonly type: 'expire' };

export const proposals = (state: NegotiationState): Proposal[] =>
  state.history.flatMap((item) => (item.type === 'propose' ? [item.document] : []));

/** The most recent proposal: the only live one, since each proposal supersedes the one before. */
export function latestProposal(state: NegotiationState): Proposal | null {
  for (let i = state.history.length - 1; i >= 0; i--) {
    const item = state.history[i] as HistoryItem;
    if (item.type === 'propose') return item.document;
  }
  return null;
}

/** §3.4 `valid_until`: a proposal is live up to and including that instant. */
export const hasExpired = (proposal: Proposal, now: number): boolean => now > Date.parse(proposal.valid_until);

export const otherParty = (state: Pick<NegotiationState, 'parties'>, party: PartyDid): PartyDid =>
  state.parties[0] === party ? state.parties[1] : state.parties[0];

export const isParty = (state: Pick<NegotiationState, 'parties'>, did: string): did is PartyDid =>
  state.parties.includes(did as PartyDid);

/** The state after one applied step: a new object; the previous state is never touched. */
export function advance(
  state: NegotiationState,
  item: HistoryItem,
  status: NegotiationStatus,
  patch: Partial<Pick<NegotiationState, 'agreement'>> = {},
): NegotiationState {
  return { ...state, ...patch, status, history: [...state.history, item], updated_at: item.received_at };
}

export const receivedAt = (now: number): string => toTimestamp(now);
