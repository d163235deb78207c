import { describe, expect, it } from 'vitest';
import { REPLAY_RETENTION_MS, ReplayMemory } from './replay-memory';

const T = 1_000_000;
const MIN = 60_000;

describe('ReplayMemory', () => {
  it('remembers an id with its digest for at least 10 minutes', () => {
    const memory = new ReplayMemory();
    expect(memory.remember('m1', 'd1', T)).toEqual({ ok: true, value: 'remembered' });
    expect(memory.has('m1', T)).toBe(true);
    expect(memory.lookup('m1', T + 10 * MIN)).toBe('d1');
    expect(memory.has('m1', T + 10 * MIN + 1)).toBe(false);
    expect(memory.lookup('unknown', T)).toBeUndefined();
    expect(REPLAY_RETENTION_MS).toBe(10 * MIN);
  });

  it('tells an identical re-post (duplicate) from an id reused for other content (id_conflict)', () => {
    const memory = new ReplayMemory();
    memory.remember('m1', 'd1', T);
    expect(memory.remember('m1', 'd1', T + MIN)).toEqual({ ok: true, value: 'duplicate' });
    const conflict = memory.remember('m1', 'other', T + MIN);
    expect(conflict.ok).toBe(false);
    if (!conflict.ok)
      expect(conflict.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'id_conflict', id: 'm1' } });
    expect(memory.lookup('m1', T + MIN)).toBe('d1');
  });

  it('forgets expired ids, so an id may be reused once it can no longer pass the timestamp window', () => {
    const memory = new ReplayMemory();
    memory.remember('m1', 'd1', T);
    expect(memory.remember('m1', 'd2', T + 11 * MIN)).toEqual({ ok: true, value: 'remembered' });
    expect(memory.lookup('m1', T + 11 * MIN)).toBe('d2');
    expect(memory.size).toBe(1);
  });

  it('prunes old entries as it goes', () => {
    const memory = new ReplayMemory();
    for (let i = 0; i < 100; i++) memory.remember(`m${i}`, 'd', T + i * 1000);
    memory.remember('late', 'd', T + 99_000 + 10 * MIN);
    expect(memory.size).toBe(2); // m99 is exactly 10 minutes old: still live
    expect(memory.prune(T + 100 * MIN)).toBe(2);
    expect(memory.size).toBe(0);
  });

  it('is bounded: when full of live ids it refuses (fails closed) instead of forgetting early', () => {
    const memory = new ReplayMemory({ capacity: 2 });
    memory.remember('a', 'd', T);
    memory.remember('b', 'd', T + 1);
    const full = memory.remember('c', 'd', T + 2);
    expect(full.ok).toBe(false);
    if (!full.ok) expect(full.error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'replay_memory_full' } });
    expect(memory.remember('a', 'd', T + 3)).toEqual({ ok: true, value: 'duplicate' });
    expect(memory.remember('c', 'd', T + 10 * MIN + 1)).toEqual({ ok: true, value: 'remembered' });
  });

  it('finds expired entries behind a live one when the clock went back', () => {
    const memory = new ReplayMemory({ capacity: 2 });
    memory.remember('late', 'd', T + 20 * MIN);
    memory.remember('early', 'd', T); // clock went back
    // At T + 25 min, 'late' is live and blocks the cheap front prune; the full scan finds 'early'.
    expect(memory.prune(T + 25 * MIN)).toBe(0);
    expect(memory.remember('new', 'd', T + 25 * MIN)).toEqual({ ok: true, value: 'remembered' });
    expect(memory.has('early', T + 25 * MIN)).toBe(false);
  });

  it('checks its options and clock input at the boundary', () => {
    expect(() => new ReplayMemory({ retentionMs: 9 * MIN })).toThrow(RangeError);
    expect(() => new ReplayMemory({ capacity: 0 })).toThrow(RangeError);
    expect(() => new ReplayMemory({ capacity: 1.5 })).toThrow(RangeError);
    expect(new ReplayMemory({ retentionMs: 20 * MIN }).retentionMs).toBe(20 * MIN);
    expect(() => new ReplayMemory().remember('a', 'd', Number.NaN)).toThrow(TypeError);
    expect(() => new ReplayMemory().prune(Infinity)).toThrow(TypeError);
  });
});
