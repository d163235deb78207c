import { describe, expect, it } from 'vitest';
import { countdownInWords, formatCountdown, grantEndInWords, grantState } from './grant-clock';

const T = 1_800_000_000;
const grant = { maxMessages: 5, spent: 2, expiresAt: T + 125, endedAt: null, endReason: null };

describe('grant clock', () => {
  it('formats countdowns', () => {
    expect(formatCountdown(125)).toBe('2:05');
    expect(formatCountdown(59.2)).toBe('1:00');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-10)).toBe('0:00');
    expect(formatCountdown(3600 + 120)).toBe('1 h 02 min');
    expect(countdownInWords(125)).toBe('2 minutes 5 seconds left');
    expect(countdownInWords(1)).toBe('1 second left');
    expect(countdownInWords(7260)).toBe('2 hours 1 minute left');
    expect(countdownInWords(0)).toBe('time is up');
  });

  it('ends by itself when the time is up or the budget is used', () => {
    expect(grantState(grant, T * 1000)).toEqual({ live: true, secondsLeft: 125, budgetLeft: 3 });
    expect(grantState(grant, (T + 125) * 1000)).toEqual({ live: false, reason: 'mic_grant_expired' });
    expect(grantState({ ...grant, spent: 5 }, T * 1000)).toEqual({ live: false, reason: 'message_limit_exceeded' });
    expect(grantState({ ...grant, endedAt: T, endReason: 'revoked by facilitator' }, T * 1000)).toEqual({
      live: false,
      reason: 'revoked by facilitator',
    });
  });

  it('says how a grant ended', () => {
    expect(grantEndInWords('mic_grant_expired')).toBe('time ran out');
    expect(grantEndInWords('message_limit_exceeded')).toBe('budget used up');
    expect(grantEndInWords('revoked: enough')).toBe('revoked (enough)');
    expect(grantEndInWords('by hand')).toBe('revoked: by hand');
    // A normal finish is said as one, never as a rejection with its code.
    expect(grantEndInWords('task_complete')).toBe('the task is done');
    expect(grantEndInWords('revoked: task_timeout')).toBe('revoked (the task took too long)');
    expect(grantEndInWords('some_other_code')).toBe('some other code');
  });
});
