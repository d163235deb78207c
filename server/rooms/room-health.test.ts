// The health answer's window and buckets (room-health.ts): whole UTC minutes ending with now's.
import { describe, expect, it } from 'vitest';
import { healthWindow, roomHealth } from './room-health';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 22, 12, 30, 45);

describe('room health', () => {
  it('spans the sixty whole minutes that end with the current one', () => {
    const { since, now } = healthWindow(NOW);
    expect(now).toBe(NOW);
    expect(since).toBe(Date.UTC(2026, 10, 22, 11, 31, 0));
    expect(healthWindow(Date.UTC(2026, 10, 22, 12, 31, 0)).since).toBe(Date.UTC(2026, 10, 22, 11, 32, 0));
  });

  it('gives every minute a bar, zero where nothing was said, and the oldest waiting item', () => {
    const { since, now } = healthWindow(NOW);
    const health = roomHealth({
      roomId: 'r',
      since,
      now,
      activity: {
        perMinute: [
          { at: since, messages: 3 },
          { at: since + 59 * MIN, messages: 7 },
        ],
        approved: 1,
        rejected: [{ reason: 'no_mic_grant', count: 2 }],
      },
      pending: [{ submittedAt: NOW - 5 }, { submittedAt: NOW - 90_000 }, { submittedAt: NOW - 10 }],
      agents: [{ agentId: 'agent.rogue', rejects: 2, suspended: true }],
    });
    expect(health.perMinute).toHaveLength(60);
    expect(health.perMinute.map((m) => m.messages).filter(Boolean)).toEqual([3, 7]);
    expect(health.perMinute.at(-1)).toEqual({ at: since + 59 * MIN, messages: 7 });
    expect(health.reviewQueue).toEqual({ pending: 3, oldestAt: NOW - 90_000 });
    expect(health.agents).toEqual([{ agentId: 'agent.rogue', rejects: 2, suspended: true }]);
    expect(
      roomHealth({ ...health, activity: { perMinute: [], approved: 0, rejected: [] }, pending: [], agents: [] })
        .reviewQueue,
    ).toEqual({ pending: 0, oldestAt: null });
  });
});
