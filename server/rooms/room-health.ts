// A room's last hour as GET /api/rooms/{id}/health answers it (shared/contract/agents.ts,
// RoomHealth), from what the store read (decisions-server.md §64). Pure: the window, the sixty
// minute buckets and the review queue's age are decided here, from the server's clock.
import type { RoomHealth } from '@shared/contract/agents';
import type { AgentRejectCount, ReviewItem, RoomActivity } from '../store/store';

const MINUTE_MS = 60_000;
export const HEALTH_MINUTES = 60;

/**
 * The window: the sixty whole UTC minutes that end with the current one (so `since` is at most
 * an hour before `now`, and each bar of the chart is a whole clock minute).
 */
export function healthWindow(now: number): { since: number; now: number } {
  return { since: Math.floor(now / MINUTE_MS) * MINUTE_MS - (HEALTH_MINUTES - 1) * MINUTE_MS, now };
}

export interface HealthParts {
  readonly roomId: string;
  readonly since: number;
  readonly now: number;
  readonly activity: RoomActivity;
  /** The room's pending review items. */
  readonly pending: readonly Pick<ReviewItem, 'submittedAt'>[];
  readonly agents: readonly (AgentRejectCount & { readonly suspended: boolean })[];
}

export function roomHealth(parts: HealthParts): RoomHealth {
  const counts = new Map(parts.activity.perMinute.map((m) => [m.at, m.messages]));
  const perMinute = Array.from({ length: HEALTH_MINUTES }, (_, i) => {
    const at = parts.since + i * MINUTE_MS;
    return { at, messages: counts.get(at) ?? 0 };
  });
  return {
    roomId: parts.roomId,
    now: parts.now,
    since: parts.since,
    perMinute,
    decisions: { approved: parts.activity.approved, rejected: [...parts.activity.rejected] },
    reviewQueue: {
      pending: parts.pending.length,
      oldestAt: parts.pending.reduce<number | null>(
        (oldest, i) => Math.min(oldest ?? i.submittedAt, i.submittedAt),
        null,
      ),
    },
    agents: parts.agents.map(({ agentId, rejects, suspended }) => ({ agentId, rejects, suspended })),
  };
}
