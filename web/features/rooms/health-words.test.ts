import { describe, expect, it } from 'vitest';
import { decisionsInWords, queueInWords, reasonLabel, trafficInWords } from './health-words';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('health words', () => {
  it('says how long the oldest candidate has waited', () => {
    expect(queueInWords({ pending: 0, oldestAt: null }, NOW)).toBe('Nothing waiting for review');
    expect(queueInWords({ pending: 2, oldestAt: NOW - 3 * 60_000 - 5_000 }, NOW)).toBe(
      '2 waiting, oldest waiting 3 minutes',
    );
    expect(queueInWords({ pending: 1, oldestAt: NOW - 1_000 }, NOW)).toBe('1 waiting, oldest waiting a moment');
  });

  it('sums the hour and names its busiest minute', () => {
    expect(trafficInWords([{ messages: 0 }, { messages: 0 }])).toBe('No messages in the last hour');
    expect(trafficInWords([{ messages: 1 }])).toBe('1 message in the last hour, at most 1 in a minute');
    expect(trafficInWords([{ messages: 4 }, { messages: 9 }, { messages: 0 }])).toBe(
      '13 messages in the last hour, at most 9 in a minute',
    );
  });

  it('says the decisions with their reasons in short words, unknown reasons as given', () => {
    expect(decisionsInWords({ approved: 0, rejected: [] })).toBe('No candidate decided in the last hour');
    expect(decisionsInWords({ approved: 4, rejected: [] })).toBe('4 approved, 0 rejected');
    expect(
      decisionsInWords({
        approved: 12,
        rejected: [
          { reason: 'no_mic_grant', count: 3 },
          { reason: 'custom_reason', count: 2 },
        ],
      }),
    ).toBe('12 approved, 5 rejected (3 no mic, 2 custom_reason)');
    expect(reasonLabel('message_limit_exceeded')).toBe('over budget');
  });
});
