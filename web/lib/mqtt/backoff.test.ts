import { describe, expect, it } from 'vitest';
import { backoffDelay, roomTopicFilters } from './room-connection';

describe('reconnect backoff', () => {
  it('doubles up to 30 s, with jitter in the upper half', () => {
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1_000);
    expect(backoffDelay(3, () => 1)).toBe(4_000);
    expect(backoffDelay(20, () => 1)).toBe(30_000);
    expect(backoffDelay(20, () => 0)).toBe(15_000);
  });

  it('follows the room and its console notices', () => {
    expect(roomTopicFilters('ops')).toEqual(['rooms/ops/#', 'switchboard/rooms/ops/#']);
  });
});
