import { describe, expect, it } from 'vitest';
import { isRejectReason, REJECT_REASONS, RejectReason } from './reject-reasons';

describe('reject reasons', () => {
  it('are exactly the published strings', () => {
    expect([...REJECT_REASONS].sort()).toEqual(
      [
        'no_mic_grant',
        'mic_grant_expired',
        'mic_revoked',
        'message_type_not_allowed',
        'message_limit_exceeded',
        'invalid_envelope',
        'sender_mismatch',
        'room_mismatch',
        'facilitator_rejected',
      ].sort(),
    );
    expect(RejectReason.facilitatorRejected).toBe('facilitator_rejected');
  });

  it('isRejectReason recognises only those', () => {
    expect(isRejectReason('mic_revoked')).toBe(true);
    expect(isRejectReason('MIC_REVOKED')).toBe(false);
    expect(isRejectReason(undefined)).toBe(false);
  });
});
