// The envelopes an operator sends as an Agora client: a REQUEST to one
// directory agent, and the ACCEPT of one OFFER. Pure: the clock and ids are passed in, and
// signing (shared/agora/sign-envelope.ts) happens where the key is.
import type { EnvelopeOf, UnsignedEnvelopeOf } from '@shared/agora/envelope';
import { AGORA_VERSION } from '@shared/agora/envelope';
import type { DidKey } from '@shared/crypto/did-key';

export interface BuildContext {
  /** Epoch milliseconds, this browser's clock (the relay allows ±5 minutes). */
  readonly now: number;
  /** A fresh unique string; crypto.randomUUID in the browser. */
  readonly newId: () => string;
}

/** Agora's default, written out so the envelope says how long it lives. */
const TTL_SECONDS = 300;
/** What this console calls itself in `sender.name`. */
export const OPERATOR_SENDER_NAME = 'Switchboard operator';

export interface RequestDraft {
  readonly operatorDid: DidKey;
  readonly agentDid: DidKey;
  readonly intent: string;
  readonly params: Record<string, unknown>;
  readonly title?: string;
  readonly maxCostUsd?: number;
}

/** A REQUEST addressed to one agent (only it may OFFER: decisions-agora.md §11), opening a new thread. */
export function buildRequest(draft: RequestDraft, ctx: BuildContext): UnsignedEnvelopeOf<'REQUEST'> {
  const title = draft.title?.trim();
  return {
    version: AGORA_VERSION,
    id: `msg_${ctx.newId()}`,
    ts: new Date(ctx.now).toISOString(),
    type: 'REQUEST',
    sender: { id: draft.operatorDid, name: OPERATOR_SENDER_NAME },
    recipient: { id: draft.agentDid },
    payload: {
      request_id: `req_${ctx.newId()}`,
      intent: draft.intent,
      ...(title ? { title } : {}),
      params: draft.params,
      ...(draft.maxCostUsd === undefined ? {} : { constraints: { max_cost_usd: draft.maxCostUsd } }),
    },
    thread: { id: `thread_${ctx.newId()}` },
    meta: { ttl: TTL_SECONDS, hop: 0 },
  };
}

/**
 * The ACCEPT of `offer`: names it by `offer_id` (our extension, so it is never ambiguous),
 * is addressed to the agent that made it, and repeats its price as the terms.
 */
export function buildAccept(
  operatorDid: DidKey,
  offer: EnvelopeOf<'OFFER'>,
  ctx: BuildContext,
): UnsignedEnvelopeOf<'ACCEPT'> {
  const at = new Date(ctx.now).toISOString();
  const price = offer.payload.price;
  return {
    version: AGORA_VERSION,
    id: `msg_${ctx.newId()}`,
    ts: at,
    type: 'ACCEPT',
    sender: { id: operatorDid, name: OPERATOR_SENDER_NAME },
    recipient: { id: offer.sender.id },
    payload: {
      request_id: offer.payload.request_id,
      offer_id: offer.id,
      accepted_at: at,
      ...(price && price.currency.toUpperCase() === 'USD' ? { terms: { price_usd: price.amount } } : {}),
    },
    thread: { id: offer.thread.id },
    meta: { ttl: TTL_SECONDS, hop: 0 },
  };
}
