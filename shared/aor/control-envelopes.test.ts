import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { buildEnvelope, buildGrantEndRevoke, buildRejectEnvelope, GATEWAY_SENDER } from './control-envelopes';
import { checkCandidate } from './decide-candidate';
import { parseEnvelope } from './envelope';
import { applyControl, emptyGrantState, expiredGrants, getGrant } from './mic-grants';
import { bytesOf, FACILITATOR, micGrant, resultEnvelope, T0 } from './test-support/fixtures';

const stamp = (id = 'msg_ctl_1', now = T0 + 0.7) => ({ newId: () => id, now });

describe('buildRejectEnvelope (AOR §5.7)', () => {
  it('builds the spec example from the gateway', () => {
    const reject = buildRejectEnvelope(
      'room_1',
      { reason: 'mic_grant_expired', messageId: 'msg_123', taskId: 'task_42' },
      stamp(),
    );
    expect(reject).toEqual({
      id: 'msg_ctl_1',
      type: 'reject',
      room_id: 'room_1',
      from: GATEWAY_SENDER,
      ts: T0,
      payload: { message_id: 'msg_123', task_id: 'task_42', reason: 'mic_grant_expired' },
    });
    expect(unwrap(parseEnvelope(JSON.stringify(reject)))).toEqual(reject);
  });

  it('leaves out what it does not know and keeps the detail, bounded', () => {
    const reject = buildRejectEnvelope('room_1', { reason: 'invalid_envelope', detail: 'x'.repeat(5000) }, stamp());
    expect(reject.payload).toEqual({ reason: 'invalid_envelope', detail: 'x'.repeat(1024) });
  });

  it('turns a reject verdict into its control envelope', () => {
    const verdict = checkCandidate({
      bytes: bytesOf(resultEnvelope()),
      topicRoomId: 'room_1',
      authenticatedAgentId: 'agent.researcher',
      grants: emptyGrantState,
      now: T0,
    });
    if (verdict.verdict !== 'reject') throw new Error('expected a reject');
    const reject = buildRejectEnvelope('room_1', verdict, stamp());
    expect(reject.payload).toMatchObject({ reason: 'no_mic_grant', message_id: 'msg_123', task_id: 'task_42' });
  });

  it('speaks as a facilitator in review mode', () => {
    const reject = buildRejectEnvelope(
      'room_1',
      { reason: 'facilitator_rejected', messageId: 'msg_123' },
      stamp(),
      FACILITATOR,
    );
    expect(reject.from).toEqual(FACILITATOR);
  });

  it('throws CodedError invalid_envelope for a bad room or id', () => {
    expect(() => buildRejectEnvelope('room/1', { reason: 'no_mic_grant' }, stamp())).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
    expect(() => buildRejectEnvelope('room_1', { reason: 'no_mic_grant' }, stamp(''))).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
  });
});

describe('buildGrantEndRevoke (sweeper)', () => {
  it('ends an expired grant with a revoke that applyControl records (decision "grant end by time")', () => {
    const state = unwrap(applyControl(emptyGrantState, micGrant({ expiresAt: T0 + 10 }), 'room_1')).state;
    const [expired] = expiredGrants(state, T0 + 11);
    const revoke = buildGrantEndRevoke(expired!, 'mic_grant_expired', stamp('msg_sweep_1', T0 + 11));
    expect(revoke).toEqual({
      id: 'msg_sweep_1',
      type: 'mic_revoke',
      room_id: 'room_1',
      from: GATEWAY_SENDER,
      ts: T0 + 11,
      payload: { task_id: 'task_42', agent_id: 'agent.researcher', reason: 'mic_grant_expired' },
    });
    const ended = unwrap(applyControl(state, revoke, 'room_1'));
    expect(ended.effect).toBe('revoked');
    expect(expiredGrants(ended.state, T0 + 11)).toEqual([]);
    expect(getGrant(ended.state, expired!.key)?.revoked?.reason).toBe('mic_grant_expired');
  });
});

describe('buildEnvelope', () => {
  it('builds any envelope a facilitator sends', () => {
    const task = buildEnvelope(
      { type: 'task', roomId: 'room_1', from: FACILITATOR, payload: { task_id: 'task_42', goal: 'Find 3 options' } },
      stamp('msg_task_1', T0),
    );
    expect(task).toEqual({
      id: 'msg_task_1',
      type: 'task',
      room_id: 'room_1',
      from: FACILITATOR,
      ts: T0,
      payload: { task_id: 'task_42', goal: 'Find 3 options' },
    });
  });

  it('refuses a payload the schema refuses', () => {
    expect(() =>
      buildEnvelope({ type: 'say', roomId: 'room_1', from: FACILITATOR, payload: { text: ' ' } }, stamp()),
    ).toThrow(expect.objectContaining({ code: 'invalid_envelope', message: expect.stringContaining('payload.text') }));
  });
});
