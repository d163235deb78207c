// The gateway's §7 decision on a candidate as a pure function of what was read: the candidate
// itself, the grant it names and its room. The gateway runs it inside the transaction that stores
// the candidate and its decision (Store.recordCandidate), for a live candidate and for one recovery
// finds stored but never decided alike.
import type { readCandidate } from '@shared/aor/decide-candidate';
import { checkGrant } from '@shared/aor/grant-check';
import { RejectReason, type RejectReason as Reason } from '@shared/aor/reject-reasons';
import { publicTopic } from '@shared/aor/topics';
import type { CandidateDecision, GrantRecord, NewRoomMessage, Room } from '../store/store';
import { toCoreGrant } from './grant-records';

export type CandidateRead = ReturnType<typeof readCandidate>;

export type Verdict =
  | {
      readonly kind: 'reject';
      readonly reason: Reason;
      readonly detail: string;
      readonly messageId: string | undefined;
      readonly taskId: string | undefined;
    }
  | {
      readonly kind: 'approve' | 'review';
      readonly agentId: string;
      readonly taskId: string;
      readonly messageId: string;
    };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The §7 decision from a read candidate, the grant it names and its room. */
export function verdictOf(
  read: CandidateRead,
  grant: GrantRecord | undefined,
  room: Room | undefined,
  nowMs: number,
): Verdict {
  if (!read.ok) {
    const d = read.error.details ?? {};
    return {
      kind: 'reject',
      reason: read.error.code,
      detail: read.error.message,
      messageId: str(d.messageId),
      taskId: str(d.taskId),
    };
  }
  const { envelope, grantKey } = read.value;
  const checked = checkGrant(grant && toCoreGrant(grant), {
    messageType: envelope.payload.message_type,
    now: Math.floor(nowMs / 1000),
  });
  if (!checked.ok)
    return {
      kind: 'reject',
      reason: checked.error.code,
      detail: checked.error.message,
      messageId: envelope.id,
      taskId: grantKey.taskId,
    };
  return {
    kind: room?.moderation === 'review' ? 'review' : 'approve',
    agentId: grantKey.agentId,
    taskId: grantKey.taskId,
    messageId: envelope.id,
  };
}

/** Another message under an id the agent already used in the room is not a new envelope (decisions-server.md §30). */
export function reusedIdVerdict(
  candidate: Extract<CandidateRead, { ok: true }>['value'],
): Extract<Verdict, { kind: 'reject' }> {
  const { envelope, grantKey } = candidate;
  return {
    kind: 'reject',
    reason: RejectReason.invalidEnvelope,
    detail: `The id ${envelope.id} was already used by another candidate.`,
    messageId: envelope.id,
    taskId: grantKey.taskId,
  };
}

/** The reject a candidate's transaction stores on the room's control topic. */
export type RejectRow = (reason: Reason, detail: string, messageId?: string, taskId?: string) => NewRoomMessage;

/** The reject stored instead of an approved copy whose spend the grant refused. */
function refusedRow(
  rejectRow: RejectRow,
  messageId: string,
  taskId: string,
): Extract<CandidateDecision, { kind: 'approve' }>['refused'] {
  return (reason) => rejectRow(reason, `The grant could not be spent: ${reason}.`, messageId, taskId);
}

/**
 * What the candidate's transaction stores for a verdict (decisions-server.md §30): the reject, the
 * review item, or the approved copy, which is the candidate's own row on `public` (the same bytes,
 * so no second parse) with the reject to store instead if the grant refuses the spend.
 */
export function decisionOf(
  verdict: Verdict,
  candidate: NewRoomMessage,
  nowMs: number,
  rejectRow: RejectRow,
): CandidateDecision {
  switch (verdict.kind) {
    case 'reject':
      return { kind: 'reject', reject: rejectRow(verdict.reason, verdict.detail, verdict.messageId, verdict.taskId) };
    case 'review':
      return {
        kind: 'review',
        item: {
          roomId: candidate.roomId,
          agentId: verdict.agentId,
          taskId: verdict.taskId,
          messageId: verdict.messageId,
          payload: candidate.payload,
          submittedAt: nowMs,
        },
      };
    case 'approve':
      return {
        kind: 'approve',
        agentId: verdict.agentId,
        taskId: verdict.taskId,
        nowSeconds: Math.floor(nowMs / 1000),
        // Received on public when decided: for a live candidate that is the moment it arrived, for
        // one recovery decides, the moment after the restart.
        approved: {
          roomId: candidate.roomId,
          topic: publicTopic(candidate.roomId),
          topicKind: 'public',
          topicAgentId: null,
          messageId: candidate.messageId,
          type: candidate.type,
          fromId: candidate.fromId,
          payload: candidate.payload,
          receivedAt: nowMs,
        },
        refused: refusedRow(rejectRow, verdict.messageId, verdict.taskId),
      };
  }
}
