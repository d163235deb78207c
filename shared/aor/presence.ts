// Presence from heartbeats (AOR §5.5: "sent periodically, typically every 5 seconds"). One rule
// for the server's directory and the console's live view: stale after three missed intervals,
// offline at once when the agent says so (its MQTT last will) or its connection is gone.

export type PresenceStatus = 'online' | 'stale' | 'offline';

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 5_000;
export const MISSED_INTERVALS_BEFORE_STALE = 3;
const MIN_INTERVAL_MS = 1_000;
const MAX_INTERVAL_MS = 60_000;

export interface PresenceRecord {
  readonly lastSeenAt: number;
  /** Observed spacing of this agent's heartbeats, clamped to 1–60 s. */
  readonly intervalMs: number;
  /** Set when the agent went offline explicitly (last will, clean close, lost connection). */
  readonly offlineAt: number | null;
}

export function presenceStatus(record: PresenceRecord, now: number): PresenceStatus {
  if (record.offlineAt !== null && record.offlineAt >= record.lastSeenAt) return 'offline';
  return now - record.lastSeenAt > MISSED_INTERVALS_BEFORE_STALE * record.intervalMs ? 'stale' : 'online';
}

/** The record after a heartbeat at `at`; `offline` marks a last will or a goodbye. */
export function afterHeartbeat(previous: PresenceRecord | undefined, at: number, offline: boolean): PresenceRecord {
  if (offline)
    return {
      lastSeenAt: previous?.lastSeenAt ?? at,
      intervalMs: previous?.intervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
      offlineAt: at,
    };
  const gap = previous && previous.offlineAt === null ? at - previous.lastSeenAt : DEFAULT_HEARTBEAT_INTERVAL_MS;
  const intervalMs = Math.min(
    MAX_INTERVAL_MS,
    Math.max(MIN_INTERVAL_MS, gap > 0 ? gap : DEFAULT_HEARTBEAT_INTERVAL_MS),
  );
  return { lastSeenAt: at, intervalMs, offlineAt: null };
}
