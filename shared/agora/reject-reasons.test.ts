import { describe, expect, it } from 'vitest';
import { AGORA_ERROR_CODES, AgoraReason, agoraError, agoraFail } from './reject-reasons';

describe('reject reasons', () => {
  it('map every reason to a code of the spec table', () => {
    for (const code of Object.values(AgoraReason)) expect(AGORA_ERROR_CODES).toContain(code);
  });
  it('are lowercase snake case, like the gateway reasons', () => {
    for (const reason of Object.keys(AgoraReason)) expect(reason).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
  it('build errors whose code follows from the reason and whose reason cannot be overridden', () => {
    expect(agoraError('ttl_expired', 'late', { reason: 'other', ttl: 5 })).toEqual({
      code: 'TIMEOUT',
      message: 'late',
      details: { reason: 'ttl_expired', ttl: 5 },
    });
    expect(agoraFail('not_a_party', 'no')).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'no', details: { reason: 'not_a_party' } },
    });
  });
});
