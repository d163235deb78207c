import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trailingThrottle } from './trailing-throttle';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('trailingThrottle', () => {
  it('runs at once, then at most once per window, and once more after the burst', () => {
    const calls: string[] = [];
    const throttled = trailingThrottle((k) => calls.push(k), 1000);
    throttled('r1');
    expect(calls).toEqual(['r1']);
    for (let i = 0; i < 50; i++) throttled('r1');
    expect(calls).toEqual(['r1']);
    vi.advanceTimersByTime(999);
    expect(calls).toEqual(['r1']);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['r1', 'r1']);
    vi.advanceTimersByTime(5000);
    expect(calls).toEqual(['r1', 'r1']);
  });

  it('keeps each key to its own window', () => {
    const calls: string[] = [];
    const throttled = trailingThrottle((k) => calls.push(k), 1000);
    throttled('r1');
    throttled('r2');
    throttled('r1');
    expect(calls).toEqual(['r1', 'r2']);
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(['r1', 'r2', 'r1']);
  });
});
