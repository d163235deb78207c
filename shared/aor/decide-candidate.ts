// The gateway's decision on one message from `rooms/{roomId}/public_candidates` (AOR §7), as a
// pure function of the bytes, where they arrived, who the broker says sent them, the grant state
// and the time. The server's gateway performs what it decides: republish or reject.
import { fail, ok, type ProtocolError, type Result } from '../errors';
import { parseEnvelope, type ResultEnvelope } from './envelope';
import { checkGrant, spendGrant } from './grant-check';
import { getGrant, remainingMessages, type GrantKey, type GrantRecord, type GrantState } from './mic-grants';
import { RejectReason, type GatewayRejectReason } from './reject-reasons';

export interface CandidateSource {
  /** The message exactly as published. */
  readonly bytes: Uint8Array | string;
  /** The room of the topic it was published on: the only room it can ever reach. */
  readonly topicRoomId: string;
  /** The identity the broker authenticated for the publishing connection (MQTT username). */
  readonly authenticatedAgentId: string;
}

export interface CandidateInput extends CandidateSource {
  readonly grants: GrantState;
  /** Unix seconds, from an injected clock. */
  readonly now: number;
}

export interface Approve {
  readonly verdict: 'approve';
  readonly envelope: ResultEnvelope;
  readonly grantKey: GrantKey;
  /** The grant that allows it; after spending when it comes from `decideCandidate`. */
  readonly grant: GrantRecord;
  readonly remaining: number;
}

export interface Reject {
  readonly verdict: 'reject';
  readonly reason: GatewayRejectReason;
  /** A sentence saying what was wrong, for the agent's developer. */
  readonly detail: string;
  readonly messageId?: string;
  readonly taskId?: string;
}

export type CandidateVerdict = Approve | Reject;

export interface ReadCandidate {
  readonly envelope: ResultEnvelope;
  readonly grantKey: GrantKey;
}

type CandidateError = ProtocolError & { readonly code: GatewayRejectReason };

/**
 * The envelope half of §7, which needs no grant state: well formed, a `result`, in the topic's
 * room, from the authenticated agent. Servers that keep grants in a database call this, look the
 * grant up by `grantKey`, then call `checkGrant` / `spendGrant`.
 *
 * Order: invalid_envelope (bytes) → room_mismatch → sender_mismatch → invalid_envelope (type).
 */
export function readCandidate(source: CandidateSource): Result<ReadCandidate, CandidateError> {
  const parsed = parseEnvelope(source.bytes);
  if (!parsed.ok) return fail(RejectReason.invalidEnvelope, parsed.error.message, parsed.error.details);
  const envelope = parsed.value;
  const ids = { messageId: envelope.id, ...taskIdOf(envelope.payload) };
  if (envelope.room_id !== source.topicRoomId) {
    return fail(
      RejectReason.roomMismatch,
      `room_id ${envelope.room_id} differs from the topic's room ${source.topicRoomId}.`,
      ids,
    );
  }
  if (envelope.from.kind !== 'agent' || envelope.from.id !== source.authenticatedAgentId) {
    return fail(
      RejectReason.senderMismatch,
      `from ${envelope.from.kind}:${envelope.from.id} is not the connected agent ${source.authenticatedAgentId}.`,
      ids,
    );
  }
  // §7 "type == result". Not message_type_not_allowed: that names a grant's allowed list, which a
  // facilitator can widen, while no grant can make a `say` a disclosure.
  if (envelope.type !== 'result') {
    return fail(RejectReason.invalidEnvelope, `Only result envelopes may be candidates, not ${envelope.type}.`, ids);
  }
  return ok({
    envelope,
    grantKey: { roomId: source.topicRoomId, agentId: source.authenticatedAgentId, taskId: envelope.payload.task_id },
  });
}

/** The whole of §7 without spending: approve (with the grant that allows it) or reject. */
export function checkCandidate(input: CandidateInput): CandidateVerdict {
  const read = readCandidate(input);
  if (!read.ok) return rejectOf(read.error);
  const { envelope, grantKey } = read.value;
  const checked = checkGrant(getGrant(input.grants, grantKey), {
    messageType: envelope.payload.message_type,
    now: input.now,
  });
  if (!checked.ok) return rejectOf(checked.error, envelope);
  return { verdict: 'approve', envelope, grantKey, grant: checked.value, remaining: remainingMessages(checked.value) };
}

export type Decision = CandidateVerdict & { readonly state: GrantState };

/**
 * Automatic mode: check and, on approval, spend one message of the grant. The state changes
 * only on approval, so a rejected candidate never costs budget.
 */
export function decideCandidate(input: CandidateInput): Decision {
  const read = readCandidate(input);
  if (!read.ok) return { ...rejectOf(read.error), state: input.grants };
  const { envelope, grantKey } = read.value;
  const spent = spendGrant(input.grants, grantKey, { messageType: envelope.payload.message_type, now: input.now });
  if (!spent.ok) return { ...rejectOf(spent.error, envelope), state: input.grants };
  const { grant, state } = spent.value;
  return { verdict: 'approve', envelope, grantKey, grant, remaining: remainingMessages(grant), state };
}

function rejectOf(error: CandidateError, envelope?: ResultEnvelope): Reject {
  const messageId = envelope?.id ?? stringDetail(error, 'messageId');
  const taskId = envelope?.payload.task_id ?? stringDetail(error, 'taskId');
  return {
    verdict: 'reject',
    reason: error.code,
    detail: error.message,
    ...(messageId === undefined ? {} : { messageId }),
    ...(taskId === undefined ? {} : { taskId }),
  };
}

function stringDetail(error: ProtocolError, name: string): string | undefined {
  const value = error.details?.[name];
  return typeof value === 'string' ? value : undefined;
}

function taskIdOf(payload: object): { taskId?: string } {
  return 'task_id' in payload && typeof payload.task_id === 'string' ? { taskId: payload.task_id } : {};
}
