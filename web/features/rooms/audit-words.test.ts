import { describe, expect, it } from 'vitest';
import { auditInWords, auditTarget, permalink } from './audit-words';

describe('audit words', () => {
  it('says each facilitator action in words', () => {
    expect(auditInWords({ action: 'room.task', details: { task_id: 't1', agent_id: 'a', goal: 'Look' } })).toBe(
      'Assigned a a task: “Look”',
    );
    // Tasks by their goals, never by id (decisions-web.md §33).
    const goals = (id: string) => ({ t1: 'Compare three APIs' })[id];
    expect(auditInWords({ action: 'review.approve', details: { taskId: 't1', agentId: 'a' } }, goals)).toBe(
      'Approved a’s candidate for “Compare three APIs”',
    );
    expect(auditInWords({ action: 'review.approve', details: { taskId: 't9', agentId: 'a' } }, goals)).toBe(
      'Approved a’s candidate for a task',
    );
    // The end has its date (and its year, unless it is this year): never a bare clock time.
    expect(
      auditInWords({
        action: 'room.mic_grant',
        details: { task_id: 't1', agent_id: 'a', max_messages: 5, expires_at: 1_800_000_000 },
      }),
    ).toMatch(/^Granted the mic to a for a task: 5 messages, until Fri 15 Jan( 2027)?, 08:00 UTC$/);
    expect(
      auditInWords({ action: 'room.mic_revoke', details: { task_id: 't1', agent_id: 'a', reason: 'enough' } }),
    ).toBe('Revoked the mic from a for a task (enough)');
    expect(auditInWords({ action: 'review.approve', details: { taskId: 't1', agentId: 'a' } })).toBe(
      'Approved a’s candidate for a task',
    );
    expect(
      auditInWords({ action: 'review.reject', details: { taskId: 't1', agentId: 'a', reason: 'off topic' } }),
    ).toBe('Rejected a’s candidate for a task: “off topic”');
    expect(
      auditInWords({ action: 'room.retention', details: { from: null, to: { maxMessages: 500, maxAgeDays: 7 } } }),
    ).toBe('Set history retention: keep the newest 500 messages, none older than 7 days');
    expect(
      auditInWords({ action: 'room.retention', details: { from: { maxMessages: 5, maxAgeDays: null }, to: null } }),
    ).toBe('Set history retention: keep all history');
    expect(
      auditInWords({
        action: 'agent.suspend',
        details: { agentId: 'a', reason: 'floods', grantsEnded: ['t1', 't2'] },
      }),
    ).toBe('Suspended a: “floods”; ended its grant for a task, a task');
    expect(auditInWords({ action: 'agent.suspend', details: { agentId: 'a', reason: 'x' } })).toBe('Suspended a: “x”');
    expect(auditInWords({ action: 'agent.resume', details: { agentId: 'a' } })).toBe('Resumed a');
    expect(auditInWords({ action: 'room.something_new', details: {} })).toBe('something new');
  });

  it('links by cursor, else by message id', () => {
    expect(auditTarget({ messageId: 'msg_1', details: { cursor: 42 } })).toBe('42');
    expect(auditTarget({ messageId: 'msg_1', details: {} })).toBe('msg_1');
    expect(auditTarget({ messageId: null, details: {} })).toBeNull();
    expect(permalink('ops room', '42')).toBe('/rooms/ops%20room?m=42');
  });
});
