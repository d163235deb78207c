// The grant half of the gateway's rules (AOR §7), apart from the envelope half so that review
// mode can check a candidate when it is submitted and spend the budget only when a facilitator
// approves it, re-checking then against the grant in force at that moment.
import { fail, ok, type ProtocolError, type Result } from '../errors';
import { getGrant, withGrant, type GrantKey, type GrantRecord, type GrantState } from './mic-grants';
import type { MessageType } from './payloads';
import { RejectReason, type GrantRejectReason } from './reject-reasons';
import { wholeSeconds } from './time';

export type GrantError = ProtocolError & { readonly code: GrantRejectReason };

export interface GrantUse {
  readonly messageType: MessageType;
  /** Unix seconds; a fraction counts as the whole second it falls in. */
  readonly now: number;
}

/**
 * Whether `grant` lets one more message of `messageType` through at `now`, without spending.
 * Order of the checks (each one's reason is reported, the first that fails wins): no grant;
 * expired (before revoked, since the sweeper ends expired grants with a revoke and the agent
 * should learn the real cause); revoked; message type; budget.
 */
export function checkGrant(grant: GrantRecord | undefined, use: GrantUse): Result<GrantRecord, GrantError> {
  const now = wholeSeconds(use.now);
  if (!grant) return fail(RejectReason.noMicGrant, 'No mic grant for this agent and task in this room.');
  // §7 "current time ≤ expires_at": live through the whole second expires_at.
  if (now > grant.expiresAt) {
    return fail(RejectReason.micGrantExpired, `Mic grant ${grant.grantId} expired at ${grant.expiresAt}.`, {
      grantId: grant.grantId,
      expiresAt: grant.expiresAt,
    });
  }
  if (grant.revoked) {
    const why = grant.revoked.reason === undefined ? '' : ` (${grant.revoked.reason})`;
    return fail(RejectReason.micRevoked, `Mic grant ${grant.grantId} was revoked${why}.`, {
      grantId: grant.grantId,
      revokeId: grant.revoked.revokeId,
    });
  }
  if (!grant.allowedMessageTypes.includes(use.messageType)) {
    return fail(RejectReason.messageTypeNotAllowed, `Mic grant ${grant.grantId} does not allow ${use.messageType}.`, {
      grantId: grant.grantId,
      allowed: grant.allowedMessageTypes,
    });
  }
  // §7 "message count ≤ max_messages", counting this message.
  if (grant.spent >= grant.maxMessages) {
    return fail(RejectReason.messageLimitExceeded, `Mic grant ${grant.grantId} has used all ${grant.maxMessages} messages.`, {
      grantId: grant.grantId,
      maxMessages: grant.maxMessages,
    });
  }
  return ok(grant);
}

export interface SpentGrant {
  readonly state: GrantState;
  /** The grant after spending, with `spent` incremented. */
  readonly grant: GrantRecord;
}

/** Re-checks the grant in force for `key` and spends one message of its budget. */
export function spendGrant(state: GrantState, key: GrantKey, use: GrantUse): Result<SpentGrant, GrantError> {
  const checked = checkGrant(getGrant(state, key), use);
  if (!checked.ok) return checked;
  const grant: GrantRecord = { ...checked.value, spent: checked.value.spent + 1 };
  return ok({ state: withGrant(state, grant), grant });
}
