import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { checkGrant, spendGrant } from './grant-check';
import { applyControl, emptyGrantState, getGrant, type GrantRecord } from './mic-grants';
import { micGrant, micRevoke, T0 } from './test-support/fixtures';

const KEY = { roomId: 'room_1', agentId: 'agent.researcher', taskId: 'task_42' };
const granted = unwrap(
  applyControl(
    emptyGrantState,
    micGrant({ maxMessages: 2, allowed: ['ack', 'finding'], expiresAt: T0 + 60 }),
    'room_1',
  ),
).state;
const grant = getGrant(granted, KEY) as GrantRecord;
const use = { messageType: 'finding' as const, now: T0 };

describe('checkGrant (AOR §7)', () => {
  it('approves within every limit, without spending', () => {
    expect(checkGrant(grant, use)).toEqual({ ok: true, value: grant });
    expect(grant.spent).toBe(0);
  });

  it('no_mic_grant without a grant', () => {
    expect(checkGrant(undefined, use)).toMatchObject({ ok: false, error: { code: 'no_mic_grant' } });
  });

  it('is live through the exact expiry second and expired one second later (decision "inclusive expiry")', () => {
    expect(checkGrant(grant, { ...use, now: T0 + 60 }).ok).toBe(true);
    expect(checkGrant(grant, { ...use, now: T0 + 60.999 }).ok).toBe(true);
    expect(checkGrant(grant, { ...use, now: T0 + 61 })).toMatchObject({
      ok: false,
      error: { code: 'mic_grant_expired', details: { expiresAt: T0 + 60 } },
    });
  });

  it('mic_revoked after a revoke, naming its reason', () => {
    const revoked = getGrant(
      unwrap(applyControl(granted, micRevoke({ reason: 'task_cancelled' }), 'room_1')).state,
      KEY,
    );
    const result = checkGrant(revoked, use);
    expect(result).toMatchObject({ ok: false, error: { code: 'mic_revoked', details: { revokeId: 'msg_revoke_1' } } });
    if (!result.ok) expect(result.error.message).toContain('task_cancelled');
    const bare = getGrant(unwrap(applyControl(granted, micRevoke(), 'room_1')).state, KEY);
    expect(checkGrant(bare, use)).toMatchObject({ ok: false, error: { code: 'mic_revoked' } });
  });

  it('reports expiry before revocation (decision "check order")', () => {
    const revoked = getGrant(
      unwrap(applyControl(granted, micRevoke({ ts: T0 + 61, reason: 'mic_grant_expired' }), 'room_1')).state,
      KEY,
    );
    expect(checkGrant(revoked, { ...use, now: T0 + 61 })).toMatchObject({
      ok: false,
      error: { code: 'mic_grant_expired' },
    });
  });

  it('message_type_not_allowed for a type outside the grant', () => {
    expect(checkGrant(grant, { ...use, messageType: 'risk' })).toMatchObject({
      ok: false,
      error: { code: 'message_type_not_allowed', details: { allowed: ['ack', 'finding'] } },
    });
  });

  it('message_limit_exceeded once max_messages are spent', () => {
    expect(checkGrant({ ...grant, spent: 1 }, use).ok).toBe(true);
    expect(checkGrant({ ...grant, spent: 2 }, use)).toMatchObject({
      ok: false,
      error: { code: 'message_limit_exceeded' },
    });
  });

  it('refuses a clock that is not Unix seconds', () => {
    expect(() => checkGrant(grant, { ...use, now: Number.NaN })).toThrow(RangeError);
  });
});

describe('spendGrant', () => {
  it('spends exactly max_messages and then refuses (decision "budget")', () => {
    const first = unwrap(spendGrant(granted, KEY, use));
    expect(first.grant.spent).toBe(1);
    expect(getGrant(granted, KEY)?.spent).toBe(0); // pure
    const second = unwrap(spendGrant(first.state, KEY, use));
    expect(second.grant.spent).toBe(2);
    expect(spendGrant(second.state, KEY, use)).toMatchObject({ ok: false, error: { code: 'message_limit_exceeded' } });
  });

  it('re-checks at spend time: a grant that expired while the candidate waited is not spent (decision "review mode")', () => {
    expect(spendGrant(granted, KEY, { ...use, now: T0 + 61 })).toMatchObject({
      ok: false,
      error: { code: 'mic_grant_expired' },
    });
  });

  it('spends against the grant in force at approval, with its allowed types', () => {
    const narrowed = unwrap(
      applyControl(granted, micGrant({ id: 'g2', ts: T0 + 1, allowed: ['ack'] }), 'room_1'),
    ).state;
    expect(spendGrant(narrowed, KEY, use)).toMatchObject({ ok: false, error: { code: 'message_type_not_allowed' } });
  });

  it('no_mic_grant for an unknown key', () => {
    expect(spendGrant(emptyGrantState, KEY, use)).toMatchObject({ ok: false, error: { code: 'no_mic_grant' } });
  });
});
