// The store keeps grants as rows; the pure core reasons about them as `GrantRecord`s. These two
// functions are the only translation between the two shapes.
import type { GrantRecord as CoreGrant } from '@shared/aor/mic-grants';
import type { MessageType } from '@shared/aor/payloads';
import { endRevokes } from '@shared/aor/stored-grants';
import type { GrantRecord as StoredGrant } from '../store/store';

export function toCoreGrant(stored: StoredGrant): CoreGrant {
  const ended = endRevokes(stored);
  return {
    key: { roomId: stored.roomId, agentId: stored.agentId, taskId: stored.taskId },
    grantId: stored.grantMessageId,
    grantedAt: stored.grantedAt,
    grantedBy: { kind: 'user', id: 'facilitator' },
    maxMessages: stored.maxMessages,
    allowedMessageTypes: stored.allowedTypes as MessageType[],
    expiresAt: stored.expiresAt,
    spent: stored.spent,
    // An ended grant is revoked for the core's purposes, except that an expiry stays an expiry
    // (checkGrant tests expiry first and reports mic_grant_expired).
    ...(ended
      ? {
          revoked: {
            revokeId: `ended:${stored.grantMessageId}`,
            at: stored.endedAt ?? 0,
            by: { kind: 'system', id: 'gateway' },
            reason: stored.endReason ?? 'ended',
          },
        }
      : {}),
    appliedControlIds: [stored.grantMessageId],
  };
}
