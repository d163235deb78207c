// The mic grant rule as a store applies it to the row it read (decisions-server.md §1, §2): what a
// put leaves in force, and whether a spend goes through or which reason refuses it. Both engines
// call these; each runs only the atomic SQL around them (the read, and a write that changes the
// row only while it is still the row that was read).
import { grantRefusal } from './grant-check';
import { RejectReason } from './reject-reasons';

/** A grant as a store holds it, as far as the rule reads it. */
export interface StoredGrantState {
  readonly grantMessageId: string;
  /** Unix seconds of the grant message (its `ts`). */
  readonly grantedAt: number;
  readonly maxMessages: number;
  readonly expiresAt: number;
  readonly spent: number;
  readonly endedAt: number | null;
  readonly endReason: string | null;
}

export type SpendRefusal = 'no_mic_grant' | 'mic_grant_expired' | 'mic_revoked' | 'message_limit_exceeded';

export type SpendVerdict =
  | { readonly ok: true; readonly spent: number; readonly remaining: number }
  | { readonly ok: false; readonly reason: SpendRefusal };

/**
 * Whether a stored end counts as a revocation. An end for the budget does not: its spent count
 * already refuses the next message with message_limit_exceeded, the reason the agent should learn.
 */
export const endRevokes = (grant: Pick<StoredGrantState, 'endedAt' | 'endReason'>): boolean =>
  grant.endedAt !== null && grant.endReason !== RejectReason.messageLimitExceeded;

/**
 * §1: what putting `next` does over `current`, the grant in force for the same key. A different
 * and not older grant message replaces it (AOR §5.3: each grant has its own budget, and a newer
 * grant lifts an end, as in mic-grants.ts); the same message again (an MQTT QoS 1 redelivery) or
 * an older one changes nothing, so a duplicate never refills a budget.
 */
export function grantPut(
  current: Pick<StoredGrantState, 'grantMessageId' | 'grantedAt'> | undefined,
  next: Pick<StoredGrantState, 'grantMessageId' | 'grantedAt'>,
): 'insert' | 'replace' | 'keep' {
  if (!current) return 'insert';
  return next.grantMessageId !== current.grantMessageId && next.grantedAt >= current.grantedAt ? 'replace' : 'keep';
}

/**
 * §2: why a spend of one message at `now` (Unix seconds) is refused, in grant-check.ts's order, or
 * undefined when it goes through. An ended grant spends nothing, whatever its end's reason.
 */
export function spendRefusal(grant: StoredGrantState | undefined, now: number): SpendRefusal | undefined {
  const standing = grant && {
    expiresAt: grant.expiresAt,
    revoked: endRevokes(grant),
    spent: grant.spent,
    maxMessages: grant.maxMessages,
  };
  // No message type is checked here, so the refusal is never message_type_not_allowed.
  const refusal = grantRefusal(standing, now) as SpendRefusal | undefined;
  return refusal ?? (grant && grant.endedAt !== null ? RejectReason.messageLimitExceeded : undefined);
}

/** §2: a spend decided on the grant as the transaction read it; the engine writes the new count. */
export function decideSpend(grant: StoredGrantState | undefined, now: number): SpendVerdict {
  const reason = spendRefusal(grant, now);
  if (reason !== undefined || !grant) return { ok: false, reason: reason ?? RejectReason.noMicGrant };
  const spent = grant.spent + 1;
  return { ok: true, spent, remaining: grant.maxMessages - spent };
}
