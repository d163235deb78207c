import { describe, expect, it } from 'vitest';
import { activityKind, activityTarget } from './activity';

describe('activity kind and target', () => {
  it('reads the family from the action, the record before the activity log included', () => {
    expect(activityKind('agent.suspend')).toBe('agent');
    expect(activityKind('operator_enrolled')).toBe('operator');
    expect(activityKind('operator.invite')).toBe('operator');
    expect(activityKind('review.settle')).toBe('review');
    expect(activityKind('room.mic_grant')).toBe('room');
    expect(activityKind('ledger.credit')).toBeNull();
    expect(activityKind('')).toBeNull();
  });

  it('names the agent or operator acted on; an invitation and a room-only action name nobody', () => {
    expect(activityTarget('agent.create', 'did:key:zA', { agentId: 'bot' })).toBe('bot');
    expect(activityTarget('room.task', 'did:key:zA', { agent_id: 'bot' })).toBe('bot');
    expect(activityTarget('room.moderation', 'did:key:zA', { from: 'auto' })).toBeNull();
    expect(activityTarget('operator.role', 'did:key:zA', { did: 'did:key:zB' })).toBe('did:key:zB');
    expect(activityTarget('operator.enroll', 'did:key:zC', { role: 'observer' })).toBe('did:key:zC');
    expect(activityTarget('operator.invite', 'did:key:zA', { role: 'observer' })).toBeNull();
    expect(activityTarget('operator.invite_revoke', 'did:key:zA', {})).toBeNull();
    expect(activityTarget('agent.create', 'did:key:zA', { agentId: '' })).toBeNull();
    expect(activityTarget('other', 'did:key:zA', { agentId: 'bot' })).toBeNull();
  });
});
