// Building outgoing envelopes: the gateway's `reject` (AOR §5.7), the sweeper's `mic_revoke`
// that ends a grant by time or budget or for a suspended agent, and any other envelope a
// facilitator sends. Ids and time
// are passed in, so the core stays deterministic.
import { CodedError } from '../errors';
import {
  Envelope,
  type EnvelopeOf,
  type EnvelopeType,
  type From,
  type MicRevokeEnvelope,
  type RejectEnvelope,
} from './envelope';
import type { GrantRecord } from './mic-grants';
import type { RejectReason } from './reject-reasons';
import { wholeSeconds } from './time';

/** Who the gateway speaks as on a room's control topic. */
export const GATEWAY_SENDER: From = { kind: 'system', id: 'gateway' };

export interface Stamp {
  /** A fresh, globally unique message id (AOR §4). */
  readonly newId: () => string;
  /** Unix seconds; a fraction is dropped. */
  readonly now: number;
}

export interface EnvelopeDraft<T extends EnvelopeType> {
  readonly type: T;
  readonly roomId: string;
  readonly from: From;
  readonly payload: EnvelopeOf<T>['payload'];
}

/** A complete, schema-checked envelope. Throws CodedError `invalid_envelope` on bad input. */
export function buildEnvelope<T extends EnvelopeType>(draft: EnvelopeDraft<T>, stamp: Stamp): EnvelopeOf<T> {
  const candidate = {
    id: stamp.newId(),
    type: draft.type,
    room_id: draft.roomId,
    from: draft.from,
    ts: wholeSeconds(stamp.now),
    payload: draft.payload,
  };
  const parsed = Envelope.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`);
    throw new CodedError('invalid_envelope', `Cannot build ${draft.type} envelope: ${issues.join('; ')}`, { issues });
  }
  return parsed.data as EnvelopeOf<T>;
}

export interface RejectNotice {
  readonly reason: RejectReason;
  readonly detail?: string;
  readonly messageId?: string;
  readonly taskId?: string;
}

/** The `reject` for `rooms/{roomId}/control`; `roomId` is the candidate's topic room. */
export function buildRejectEnvelope(
  roomId: string,
  notice: RejectNotice,
  stamp: Stamp,
  from: From = GATEWAY_SENDER,
): RejectEnvelope {
  return buildEnvelope(
    {
      type: 'reject',
      roomId,
      from,
      payload: {
        reason: notice.reason,
        ...(notice.messageId === undefined ? {} : { message_id: notice.messageId }),
        ...(notice.taskId === undefined ? {} : { task_id: notice.taskId }),
        ...(notice.detail === undefined ? {} : { detail: notice.detail.slice(0, 1024) }),
      },
    },
    stamp,
  );
}

/**
 * The `mic_revoke` that ends a grant whose time or budget ran out. AOR has no "grant ended"
 * type, so the end is a revoke whose reason is the matching reject reason; `applyControl` then
 * records it like any revoke.
 */
export function buildGrantEndRevoke(
  grant: GrantRecord,
  reason: Extract<RejectReason, 'mic_grant_expired' | 'message_limit_exceeded'>,
  stamp: Stamp,
  from: From = GATEWAY_SENDER,
): MicRevokeEnvelope {
  return grantRevoke(grant, reason, stamp, from);
}

/** The system `mic_revoke` of one grant, with its reason (AOR §5.4). */
function grantRevoke(grant: GrantRecord, reason: string, stamp: Stamp, from: From): MicRevokeEnvelope {
  return buildEnvelope(
    {
      type: 'mic_revoke',
      roomId: grant.key.roomId,
      from,
      payload: { task_id: grant.key.taskId, agent_id: grant.key.agentId, reason },
    },
    stamp,
  );
}

/** A revoke's reason is at most 256 characters (shared/aor/payloads.ts). */
const MAX_REVOKE_REASON = 256;

/** What a suspension's revoke says, readable by the agent and the room: `agent_suspended: <why>`. */
export const suspensionRevokeReason = (why: string) => `agent_suspended: ${why}`.slice(0, MAX_REVOKE_REASON);

/** What an operator did to an agent that ends its grants (server decisions §62, §72). */
export type AgentEnd = { readonly kind: 'suspended'; readonly why: string } | { readonly kind: 'removed' };

/** The reason of the revoke that ends a grant for `end`: `agent_suspended: <why>` or `agent_removed`. */
export const agentEndRevokeReason = (end: AgentEnd): string =>
  end.kind === 'suspended' ? suspensionRevokeReason(end.why) : 'agent_removed';

/**
 * The `mic_revoke` that ends a grant because its agent was suspended or removed (server decisions
 * §62, §72): AOR §5.4's reason carries the facilitator's words, so the agent learns why.
 */
export function buildAgentEndRevoke(
  grant: GrantRecord,
  end: AgentEnd,
  stamp: Stamp,
  from: From = GATEWAY_SENDER,
): MicRevokeEnvelope {
  return grantRevoke(grant, agentEndRevokeReason(end), stamp, from);
}
