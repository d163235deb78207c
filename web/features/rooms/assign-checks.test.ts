import { describe, expect, it } from 'vitest';
import { assignProblem, isKnownAgent, MAX_GRANT_MINUTES } from './assign-checks';

const ok = {
  agentId: 'agent.a',
  goal: 'Summarise',
  format: '',
  deadlineMin: '',
  typesChosen: 4,
  budget: '5',
  expiryMin: '15',
};

describe('assignProblem', () => {
  it('lets an ordinary assignment through', () => {
    expect(assignProblem(ok)).toBeUndefined();
    expect(assignProblem({ ...ok, deadlineMin: '30', expiryMin: String(MAX_GRANT_MINUTES) })).toBeUndefined();
  });

  it('refuses a goal over the message limit, with its size', () => {
    expect(assignProblem({ ...ok, goal: 'x'.repeat(100_000) })).toBe(
      'The goal must be at most 4,000 characters (this has 100,000).',
    );
    expect(assignProblem({ ...ok, goal: 'x'.repeat(4_000) })).toBeUndefined();
  });

  it('refuses a deadline now or in the past', () => {
    expect(assignProblem({ ...ok, deadlineMin: '-5' })).toMatch(/in the past/);
    expect(assignProblem({ ...ok, deadlineMin: '0' })).toMatch(/in the past/);
  });

  it('refuses a grant of 190 years, and one a minute over 30 days', () => {
    expect(assignProblem({ ...ok, expiryMin: String(190 * 365 * 24 * 60) })).toMatch(/at most 30 days/);
    expect(assignProblem({ ...ok, expiryMin: String(MAX_GRANT_MINUTES + 1) })).toMatch(/at most 30 days/);
    expect(assignProblem({ ...ok, expiryMin: '0' })).toBe('The grant must last more than 0 minutes.');
  });
});

describe('isKnownAgent', () => {
  it('knows agents seen in the room or holding a credential, and nobody else', () => {
    expect(isKnownAgent('agent.a', ['agent.a'])).toBe(true);
    expect(isKnownAgent(' agent.b ', [], ['agent.b'])).toBe(true);
    expect(isKnownAgent('nobody.here', ['agent.a'], ['agent.b'])).toBe(false);
  });
});
