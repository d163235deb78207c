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

/** What the order of refusals reads from a grant: the core's record or a store's row alike. */
export interface GrantStanding {
  readonly expiresAt: number;
  readonly revoked: boolean;
  readonly spent: number;
  readonly maxMessages: number;
  /** Absent: no message type is being checked (a store's spend; the type was checked on arrival). */
  readonly typeAllowed?: boolean;
}

/**
 * The first of AOR §7's checks that `grant` fails at `now`, or undefined when one more message
 * goes through. Order: no grant; expired (before revoked, since the sweeper ends expired grants
 * with a revoke and the agent should learn the real cause); revoked; message type; budget.
 */
export function grantRefusal(grant: GrantStanding | undefined, now: number): GrantRejectReason | undefined {
  const second = wholeSeconds(now);
  if (!grant) return RejectReason.noMicGrant;
  // §7 "current time ≤ expires_at": live through the whole second expires_at.
  if (second > grant.expiresAt) return RejectReason.micGrantExpired;
  if (grant.revoked) return RejectReason.micRevoked;
  if (grant.typeAllowed === false) return RejectReason.messageTypeNotAllowed;
  // §7 "message count ≤ max_messages", counting this message.
  if (grant.spent >= grant.maxMessages) return RejectReason.messageLimitExceeded;
  return undefined;
}

/** Whether `grant` lets one more message of `messageType` through at `now`, without spending (grantRefusal's order). */
export function checkGrant(grant: GrantRecord | undefined, use: GrantUse): Result<GrantRecord, GrantError> {
  if (!grant) return fail(RejectReason.noMicGrant, 'No mic grant for this agent and task in this room.');
  const standing: GrantStanding = {
    expiresAt: grant.expiresAt,
    revoked: grant.revoked !== undefined,
    spent: grant.spent,
    maxMessages: grant.maxMessages,
    typeAllowed: grant.allowedMessageTypes.includes(use.messageType),
  };
  const { grantId } = grant;
  switch (grantRefusal(standing, use.now)) {
    case RejectReason.micGrantExpired:
      return fail(RejectReason.micGrantExpired, `Mic grant ${grantId} expired at ${grant.expiresAt}.`, {
        grantId,
        expiresAt: grant.expiresAt,
      });
    case RejectReason.micRevoked: {
      const why = grant.revoked?.reason === undefined ? '' : ` (${grant.revoked.reason})`;
      return fail(RejectReason.micRevoked, `Mic grant ${grantId} was revoked${why}.`, {
        grantId,
        revokeId: grant.revoked?.revokeId,
      });
    }
    case RejectReason.messageTypeNotAllowed:
      return fail(RejectReason.messageTypeNotAllowed, `Mic grant ${grantId} does not allow ${use.messageType}.`, {
        grantId,
        allowed: grant.allowedMessageTypes,
      });
    case RejectReason.messageLimitExceeded:
      return fail(
        RejectReason.messageLimitExceeded,
        `Mic grant ${grantId} has used all ${grant.maxMessages} messages.`,
        {
          grantId,
          maxMessages: grant.maxMessages,
        },
      );
    case RejectReason.noMicGrant: // a grant in hand is never "no grant"
    case undefined:
      return ok(grant);
  }
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
