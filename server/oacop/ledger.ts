// The local ledger standing in for OAPP (OACoP §6.2; OAPP itself is not specified). A burn is a
// signed Agora REQUEST with intent `oapp.burn` and `params.amount` (a decimal string), verified
// like any envelope (signature, ±5 min, replay); the burner is its signer and the transaction id
// `oap:tx:<envelope id>`, so anyone can verify a proofOfBurn by txId and amount
// (docs/decisions-oacop.md §A2). A DID burns only what it holds: balances are credited by the
// operator (`cli ledger credit`) or the demo, and a burn beyond one changes nothing (§A6).
import type { Envelope } from '@shared/agora/envelope';
import { CodedError } from '@shared/errors';
import type { BurnInvitationLookup } from '@agents/oacop/participant-agent';
import type { AgoraRelay } from '../relay/agora-relay';
import type { BurnRecordRow, OacopStore } from '../store/oacop-store';
import { fromUnits, isAmount, toUnits } from '@shared/oacop/ledger-amount';

export const BURN_INTENT = 'oapp.burn';

/** Counted once the burn's signature verifies, per burner DID (http/rate-limit.ts). */
export type BurnerBudget = (
  did: string,
) => { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

export const txIdOf = (envelopeId: string): string => `oap:tx:${envelopeId}`;

export function isBurn(envelope: Envelope): boolean {
  return envelope.type === 'REQUEST' && envelope.payload.intent === BURN_INTENT;
}

/** Verifies and records a burn; the same signed burn again answers the same record. */
export async function recordBurn(
  relay: AgoraRelay,
  store: OacopStore,
  text: string,
  bytes: number,
  budget?: BurnerBudget,
): Promise<BurnRecordRow> {
  const verified = await relay.verify(text, bytes);
  if (!verified.ok) throw new CodedError(verified.error.code, verified.error.message, verified.error.details);
  const { envelope } = verified.value;
  const allowed = budget?.(envelope.sender.id);
  if (allowed && !allowed.ok) {
    throw new CodedError('RATE_LIMITED', `Too many burns from this DID; try again in ${allowed.retryAfterSeconds} s.`, {
      retryAfterSeconds: allowed.retryAfterSeconds,
    });
  }
  if (!isBurn(envelope)) throw new CodedError('INVALID_REQUEST', `A burn is a REQUEST with intent ${BURN_INTENT}.`);
  const amount = (envelope.payload.params as { amount?: unknown } | undefined)?.amount;
  if (typeof amount !== 'string' || !isAmount(amount) || /^0(?:\.0+)?$/.test(amount)) {
    throw new CodedError('INVALID_REQUEST', 'params.amount must be a positive decimal string (at most 8 decimals).');
  }
  const txId = txIdOf(envelope.id);
  const outcome = await store.recordBurn({ txId, burnedBy: envelope.sender.id, amount, burnedAt: relay.now() });
  if (outcome === 'conflict') throw new CodedError('CONFLICT', `Transaction ${txId} exists with other content.`);
  if (outcome === 'insufficient') {
    throw new CodedError(
      'INSUFFICIENT_BALANCE',
      `${envelope.sender.id.slice(0, 80)} holds ${await store.balanceOf(envelope.sender.id)}, less than ${amount}.`,
    );
  }
  const record = await store.getBurn(txId);
  if (!record) throw new Error(`burn ${txId} vanished`);
  return record;
}

/** What an agent's invitation check reads (check-invitation.ts `ledgerLookup`), preloaded. */
export async function burnLookup(store: OacopStore, txId: string | undefined): Promise<BurnInvitationLookup> {
  const record = txId === undefined ? undefined : await store.getBurn(txId);
  return (id) =>
    record && id === record.txId
      ? { amount: record.amount, burnedBy: record.burnedBy, ...(record.usedFor ? { usedFor: record.usedFor } : {}) }
      : undefined;
}

/** What each demo agent holds at start: enough to pay for its invitations, the same on every run. */
export const DEMO_AGENT_CREDIT = '100';

/** Tops each demo agent up to DEMO_AGENT_CREDIT when it holds less (idempotent across restarts). */
export async function creditDemoAgents(store: OacopStore, dids: readonly string[], now: number): Promise<void> {
  const target = toUnits(DEMO_AGENT_CREDIT);
  for (const did of dids) {
    const held = toUnits(await store.balanceOf(did));
    if (held < target) await store.credit(did, fromUnits(target - held), now);
  }
}
