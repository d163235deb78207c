import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { checkCandidate, decideCandidate, readCandidate, type CandidateInput } from './decide-candidate';
import type { Envelope } from './envelope';
import { applyControl, emptyGrantState, getGrant, type GrantState } from './mic-grants';
import { bytesOf, micGrant, micRevoke, resultEnvelope, T0 } from './test-support/fixtures';

const KEY = { roomId: 'room_1', agentId: 'agent.researcher', taskId: 'task_42' };
const fold = (...envelopes: Envelope[]): GrantState =>
  envelopes.reduce((s, e) => unwrap(applyControl(s, e, e.room_id)).state, emptyGrantState);

const granted = fold(micGrant({ maxMessages: 2, allowed: ['ack', 'finding', 'result'], expiresAt: T0 + 60 }));

const input = (over: Partial<CandidateInput> = {}): CandidateInput => ({
  bytes: bytesOf(resultEnvelope()),
  topicRoomId: 'room_1',
  authenticatedAgentId: 'agent.researcher',
  grants: granted,
  now: T0,
  ...over,
});

describe('checkCandidate: approval', () => {
  it('approves a result within its grant, without spending', () => {
    const verdict = checkCandidate(input());
    expect(verdict).toMatchObject({ verdict: 'approve', grantKey: KEY, remaining: 2, envelope: resultEnvelope() });
    if (verdict.verdict === 'approve') expect(verdict.grant.spent).toBe(0);
  });

  it('reads text as well as bytes', () => {
    expect(checkCandidate(input({ bytes: JSON.stringify(resultEnvelope()) })).verdict).toBe('approve');
  });
});

describe('checkCandidate: every reject reason (AOR §7)', () => {
  it('invalid_envelope for bytes that are not an envelope, with whatever ids it could read', () => {
    expect(checkCandidate(input({ bytes: 'not json' }))).toEqual({
      verdict: 'reject',
      reason: 'invalid_envelope',
      detail: expect.stringContaining('JSON'),
    });
    const bad = { ...resultEnvelope(), payload: { task_id: 'task_42', message_type: 'finding', content: {} } };
    expect(checkCandidate(input({ bytes: bytesOf(bad) }))).toMatchObject({
      verdict: 'reject',
      reason: 'invalid_envelope',
      messageId: 'msg_123',
      taskId: 'task_42',
    });
  });

  it('invalid_envelope, not message_type_not_allowed, for a non-result type (decision "non-result candidates")', () => {
    const say = { ...resultEnvelope(), type: 'say', payload: { text: 'hello everyone' } };
    expect(checkCandidate(input({ bytes: bytesOf(say) }))).toEqual({
      verdict: 'reject',
      reason: 'invalid_envelope',
      detail: 'Only result envelopes may be candidates, not say.',
      messageId: 'msg_123',
    });
    const grant = { ...micGrant({ from: { kind: 'agent', id: 'agent.researcher' } }) };
    expect(checkCandidate(input({ bytes: bytesOf(grant) }))).toMatchObject({
      reason: 'invalid_envelope',
      taskId: 'task_42',
    });
  });

  it('room_mismatch when room_id differs from the topic room (decision "room from topic")', () => {
    const grants = fold(micGrant(), micGrant({ id: 'g2', roomId: 'room_2' }));
    const elsewhere = bytesOf(resultEnvelope({ roomId: 'room_2' }));
    expect(checkCandidate(input({ bytes: elsewhere, grants }))).toMatchObject({
      verdict: 'reject',
      reason: 'room_mismatch',
      messageId: 'msg_123',
      taskId: 'task_42',
    });
  });

  it('sender_mismatch when from.id is not the authenticated agent (decision "sender check")', () => {
    const grants = fold(micGrant(), micGrant({ id: 'g2', agentId: 'agent.other' }));
    const spoof = bytesOf(resultEnvelope({ from: { kind: 'agent', id: 'agent.other' } }));
    expect(checkCandidate(input({ bytes: spoof, grants }))).toMatchObject({
      verdict: 'reject',
      reason: 'sender_mismatch',
    });
  });

  it('sender_mismatch when from.kind is not agent, even with the right id (decision "sender check")', () => {
    for (const kind of ['user', 'system'] as const) {
      const bytes = bytesOf(resultEnvelope({ from: { kind, id: 'agent.researcher' } }));
      expect(checkCandidate(input({ bytes }))).toMatchObject({ verdict: 'reject', reason: 'sender_mismatch' });
    }
  });

  it('no_mic_grant for a task without a grant', () => {
    expect(checkCandidate(input({ bytes: bytesOf(resultEnvelope({ taskId: 'task_43' })) }))).toMatchObject({
      reason: 'no_mic_grant',
      taskId: 'task_43',
    });
    expect(checkCandidate(input({ grants: emptyGrantState }))).toMatchObject({ reason: 'no_mic_grant' });
  });

  it('mic_grant_expired one second after expires_at, approved at the exact second (decision "inclusive expiry")', () => {
    expect(checkCandidate(input({ now: T0 + 60 })).verdict).toBe('approve');
    expect(checkCandidate(input({ now: T0 + 61 }))).toMatchObject({
      verdict: 'reject',
      reason: 'mic_grant_expired',
      messageId: 'msg_123',
      taskId: 'task_42',
    });
  });

  it('mic_revoked after a revoke', () => {
    expect(checkCandidate(input({ grants: fold(micGrant(), micRevoke()) }))).toMatchObject({ reason: 'mic_revoked' });
  });

  it('message_type_not_allowed outside the allowed list', () => {
    const bytes = bytesOf(resultEnvelope({ messageType: 'risk' }));
    expect(checkCandidate(input({ bytes }))).toMatchObject({ reason: 'message_type_not_allowed' });
  });

  it('message_limit_exceeded once the budget is spent', () => {
    let grants = granted;
    for (let i = 0; i < 2; i++) grants = decideCandidate(input({ grants })).state;
    expect(checkCandidate(input({ grants }))).toMatchObject({ reason: 'message_limit_exceeded' });
  });

  it('checks room before sender before type (decision "check order")', () => {
    const wrongEverything = {
      ...resultEnvelope({ roomId: 'room_2', from: { kind: 'user', id: 'x' } }),
      type: 'say',
      payload: { text: 'hi' },
    };
    expect(checkCandidate(input({ bytes: bytesOf(wrongEverything) }))).toMatchObject({ reason: 'room_mismatch' });
    const wrongSenderAndType = { ...wrongEverything, room_id: 'room_1' };
    expect(checkCandidate(input({ bytes: bytesOf(wrongSenderAndType) }))).toMatchObject({ reason: 'sender_mismatch' });
  });
});

describe('decideCandidate (automatic mode)', () => {
  it('spends exactly max_messages approvals, then rejects (decision "budget")', () => {
    const first = decideCandidate(input());
    expect(first).toMatchObject({ verdict: 'approve', remaining: 1 });
    expect(getGrant(first.state, KEY)?.spent).toBe(1);
    const second = decideCandidate(input({ grants: first.state }));
    expect(second).toMatchObject({ verdict: 'approve', remaining: 0 });
    const third = decideCandidate(input({ grants: second.state }));
    expect(third).toMatchObject({ verdict: 'reject', reason: 'message_limit_exceeded' });
    expect(third.state).toBe(second.state);
  });

  it('a rejected candidate costs nothing', () => {
    const rejected = decideCandidate(input({ bytes: bytesOf(resultEnvelope({ messageType: 'risk' })) }));
    expect(rejected.verdict).toBe('reject');
    expect(rejected.state).toBe(granted);
    const invalid = decideCandidate(input({ bytes: '{}' }));
    expect(invalid).toMatchObject({ verdict: 'reject', reason: 'invalid_envelope' });
    expect(invalid.state).toBe(granted);
  });
});

describe('readCandidate', () => {
  it('names the grant key from the topic room and authenticated agent', () => {
    expect(unwrap(readCandidate(input())).grantKey).toEqual(KEY);
  });
});
