import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/manual-clock';
import { ConcurrencyLimiter, TokenBucketLimiter } from './rate-limit';

describe('TokenBucketLimiter', () => {
  it('allows a burst of capacity, then refills continuously', () => {
    const clock = manualClock();
    const limiter = new TokenBucketLimiter({ capacity: 3, refillPerSecond: 0.5, clock });
    expect([1, 2, 3].map(() => limiter.take('a').ok)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 2 });
    clock.advance(1000);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    clock.advance(1000);
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
  });

  it('never refills beyond capacity', () => {
    const clock = manualClock();
    const limiter = new TokenBucketLimiter({ capacity: 2, refillPerSecond: 1, clock });
    clock.advance(3_600_000);
    expect([1, 2, 3].map(() => limiter.take('a').ok)).toEqual([true, true, false]);
  });

  it('keeps one bucket per key', () => {
    const limiter = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0.01, clock: manualClock() });
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    expect(limiter.take('b').ok).toBe(true);
  });

  it('forgets the least recently seen key beyond maxKeys (it starts again full)', () => {
    const limiter = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0.01, clock: manualClock(), maxKeys: 2 });
    limiter.take('a');
    limiter.take('b');
    limiter.take('a'); // a is now the most recent
    limiter.take('c'); // evicts b
    expect(limiter.take('a').ok).toBe(false);
    expect(limiter.take('b').ok).toBe(true);
  });

  it('refuses nonsense options', () => {
    expect(() => new TokenBucketLimiter({ capacity: 0, refillPerSecond: 1, clock: manualClock() })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0, clock: manualClock() })).toThrow(RangeError);
  });
});

describe('ConcurrencyLimiter', () => {
  it('holds at most max per key, frees on release, and ignores a second release', () => {
    const limiter = new ConcurrencyLimiter(2);
    const a = limiter.acquire('a');
    const b = limiter.acquire('a');
    expect(a && b).toBeTruthy();
    expect(limiter.acquire('a')).toBeUndefined();
    expect(limiter.acquire('b')).toBeDefined();
    a!();
    a!();
    expect(limiter.held('a')).toBe(1);
    expect(limiter.acquire('a')).toBeDefined();
    expect(limiter.acquire('a')).toBeUndefined();
  });
});
