import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import type { Envelope } from './envelope';
import {
  applyControl,
  emptyGrantState,
  expiredGrants,
  getGrant,
  grantKeyId,
  remainingMessages,
  type GrantState,
} from './mic-grants';
import { FACILITATOR, micGrant, micRevoke, resultEnvelope, T0 } from './test-support/fixtures';

const KEY = { roomId: 'room_1', agentId: 'agent.researcher', taskId: 'task_42' };

const apply = (state: GrantState, envelope: Envelope, room = 'room_1') => unwrap(applyControl(state, envelope, room));
const fold = (...envelopes: Envelope[]) => envelopes.reduce((s, e) => apply(s, e).state, emptyGrantState);

describe('applyControl: mic_grant (AOR §5.3)', () => {
  it('records a grant under (topic room, agent_id, task_id)', () => {
    const { state, effect, key } = apply(emptyGrantState, micGrant());
    expect(effect).toBe('granted');
    expect(key).toEqual(KEY);
    expect(getGrant(state, KEY)).toMatchObject({
      grantId: 'msg_grant_1',
      grantedAt: T0,
      grantedBy: FACILITATOR,
      maxMessages: 6,
      expiresAt: T0 + 1200,
      spent: 0,
    });
    expect(remainingMessages(getGrant(state, KEY)!)).toBe(6);
    expect(emptyGrantState.grants.size).toBe(0); // pure: the input state is untouched
  });

  it('drops duplicate allowed types', () => {
    const state = fold(micGrant({ allowed: ['ack', 'ack', 'result'] }));
    expect(getGrant(state, KEY)?.allowedMessageTypes).toEqual(['ack', 'result']);
  });

  it('a newer grant replaces the old one: fresh budget, new limits, revocation cleared (decision "grant replacement")', () => {
    const old = fold(micGrant({ maxMessages: 1 }), micRevoke({ ts: T0 + 5 }));
    const { state, effect } = apply(old, micGrant({ id: 'msg_grant_2', ts: T0 + 6, maxMessages: 3, allowed: ['ack'] }));
    expect(effect).toBe('replaced');
    expect(getGrant(state, KEY)).toMatchObject({
      grantId: 'msg_grant_2',
      maxMessages: 3,
      allowedMessageTypes: ['ack'],
      spent: 0,
    });
    expect(getGrant(state, KEY)?.revoked).toBeUndefined();
  });

  it('a grant in the same second as the one in force also replaces it', () => {
    const { effect } = apply(fold(micGrant()), micGrant({ id: 'msg_grant_2', ts: T0 }));
    expect(effect).toBe('replaced');
  });

  it('ignores a redelivered grant, so a QoS 1 duplicate never refills a budget (decision "redelivery")', () => {
    const spent = fold(micGrant());
    const used = { grants: new Map([[grantKeyId(KEY), { ...getGrant(spent, KEY)!, spent: 4 }]]) };
    const { state, effect } = apply(used, micGrant());
    expect(effect).toBe('ignored_redelivery');
    expect(state).toBe(used);
    expect(getGrant(state, KEY)?.spent).toBe(4);
  });

  it('ignores a replayed older grant after a newer one (decision "grant replacement")', () => {
    const state = fold(micGrant(), micGrant({ id: 'msg_grant_2', ts: T0 + 1 }));
    expect(apply(state, micGrant()).effect).toBe('ignored_redelivery');
    expect(apply(state, micGrant({ id: 'msg_grant_0', ts: T0 - 1 })).effect).toBe('ignored_stale');
    expect(getGrant(state, KEY)?.grantId).toBe('msg_grant_2');
  });

  it('keeps grants for other tasks, agents and rooms apart', () => {
    const state = fold(
      micGrant(),
      micGrant({ id: 'g2', taskId: 'task_43' }),
      micGrant({ id: 'g3', agentId: 'agent.other' }),
    );
    const other = apply(state, micGrant({ id: 'g4', roomId: 'room_2' }), 'room_2').state;
    expect(other.grants.size).toBe(4);
    expect(getGrant(other, { ...KEY, roomId: 'room_2' })?.grantId).toBe('g4');
  });
});

describe('applyControl: mic_revoke (AOR §5.4)', () => {
  it('invalidates the grant in force and remembers why (decision "revoke semantics")', () => {
    const { state, effect } = apply(fold(micGrant()), micRevoke({ reason: 'task_cancelled' }));
    expect(effect).toBe('revoked');
    expect(getGrant(state, KEY)?.revoked).toEqual({
      revokeId: 'msg_revoke_1',
      at: T0 + 10,
      by: FACILITATOR,
      reason: 'task_cancelled',
    });
  });

  it('without a reason records none', () => {
    const state = fold(micGrant(), micRevoke());
    expect(getGrant(state, KEY)?.revoked).not.toHaveProperty('reason');
  });

  it('a revoke in the same second as the grant applies', () => {
    expect(apply(fold(micGrant()), micRevoke({ ts: T0 })).effect).toBe('revoked');
  });

  it('ignores a revoke older than the grant in force, meant for the grant it replaced (decision "revoke semantics")', () => {
    const state = fold(micGrant({ ts: T0 + 20 }));
    const { state: next, effect } = apply(state, micRevoke({ ts: T0 + 19 }));
    expect(effect).toBe('ignored_stale');
    expect(getGrant(next, KEY)?.revoked).toBeUndefined();
  });

  it('a revoke for a key with no grant is a no-op (decision "revoke semantics")', () => {
    const { state, effect } = apply(emptyGrantState, micRevoke());
    expect(effect).toBe('ignored_no_grant');
    expect(state).toBe(emptyGrantState);
  });

  it('a second revoke keeps the first; a redelivered one is ignored', () => {
    const state = fold(micGrant(), micRevoke({ reason: 'first' }));
    expect(apply(state, micRevoke({ reason: 'first' })).effect).toBe('ignored_redelivery');
    const again = apply(state, micRevoke({ id: 'msg_revoke_2', reason: 'second' }));
    expect(again.effect).toBe('ignored_already_revoked');
    expect(getGrant(again.state, KEY)?.revoked?.reason).toBe('first');
  });
});

describe('applyControl: what it refuses or ignores', () => {
  it('refuses a grant whose room_id differs from the topic room (decision "room from topic")', () => {
    expect(applyControl(emptyGrantState, micGrant({ roomId: 'room_2' }), 'room_1')).toMatchObject({
      ok: false,
      error: { code: 'room_mismatch', details: { messageId: 'msg_grant_1' } },
    });
  });

  it('refuses grants and revokes from an agent (decision "control from agents")', () => {
    const agent = { kind: 'agent', id: 'agent.researcher' } as const;
    expect(applyControl(emptyGrantState, micGrant({ from: agent }), 'room_1')).toMatchObject({
      ok: false,
      error: { code: 'unauthorized_control' },
    });
    expect(applyControl(fold(micGrant()), micRevoke({ from: agent }), 'room_1')).toMatchObject({
      ok: false,
      error: { code: 'unauthorized_control' },
    });
  });

  it('accepts grants from a system sender (console automations)', () => {
    expect(apply(emptyGrantState, micGrant({ from: { kind: 'system', id: 'console' } })).effect).toBe('granted');
  });

  it('leaves the state alone for other envelope types', () => {
    const state = fold(micGrant());
    const { state: next, effect } = apply(state, resultEnvelope());
    expect(effect).toBe('not_a_grant_event');
    expect(next).toBe(state);
  });
});

describe('expiredGrants (sweeper)', () => {
  const state = fold(
    micGrant({ id: 'g1', taskId: 't_b', expiresAt: T0 + 100 }),
    micGrant({ id: 'g2', taskId: 't_a', expiresAt: T0 + 100 }),
    micGrant({ id: 'g3', taskId: 't_c', expiresAt: T0 + 200 }),
  );

  it('lists nothing through the exact expiry second, fraction included (decision "inclusive expiry")', () => {
    expect(expiredGrants(state, T0 + 100)).toEqual([]);
    expect(expiredGrants(state, T0 + 100.999)).toEqual([]);
  });

  it('lists grants past expires_at, ordered by key', () => {
    expect(expiredGrants(state, T0 + 101).map((g) => g.grantId)).toEqual(['g2', 'g1']);
    expect(expiredGrants(state, T0 + 201).map((g) => g.grantId)).toEqual(['g2', 'g1', 'g3']);
  });

  it('leaves out grants a revoke already ended', () => {
    const ended = apply(state, micRevoke({ taskId: 't_a', ts: T0 + 101, reason: 'mic_grant_expired' })).state;
    expect(expiredGrants(ended, T0 + 101).map((g) => g.grantId)).toEqual(['g1']);
  });
});
