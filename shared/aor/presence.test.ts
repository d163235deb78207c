import { describe, expect, it } from 'vitest';
import { afterHeartbeat, presenceStatus } from './presence';

describe('presence', () => {
  it('is online after a heartbeat and stale after three missed intervals', () => {
    const r = afterHeartbeat(undefined, 0, false);
    expect(r.intervalMs).toBe(5_000);
    expect(presenceStatus(r, 15_000)).toBe('online');
    expect(presenceStatus(r, 15_001)).toBe('stale');
  });

  it('learns the interval from the spacing of heartbeats, within 1–60 s', () => {
    const two = afterHeartbeat(afterHeartbeat(undefined, 0, false), 2_000, false);
    expect(two.intervalMs).toBe(2_000);
    expect(presenceStatus(two, 8_001)).toBe('stale');
    expect(afterHeartbeat(afterHeartbeat(undefined, 0, false), 100, false).intervalMs).toBe(1_000);
    expect(afterHeartbeat(afterHeartbeat(undefined, 0, false), 600_000, false).intervalMs).toBe(60_000);
    expect(afterHeartbeat(afterHeartbeat(undefined, 5, false), 5, false).intervalMs).toBe(5_000);
  });

  it('is offline at once on a last will, and online again on the next heartbeat', () => {
    const online = afterHeartbeat(undefined, 1_000, false);
    const gone = afterHeartbeat(online, 2_000, true);
    expect(presenceStatus(gone, 2_000)).toBe('offline');
    expect(afterHeartbeat(undefined, 3_000, true)).toMatchObject({ offlineAt: 3_000, lastSeenAt: 3_000 });
    const back = afterHeartbeat(gone, 9_000, false);
    expect(back.intervalMs).toBe(5_000); // the gap across an absence says nothing about the interval
    expect(presenceStatus(back, 9_000)).toBe('online');
  });
});
