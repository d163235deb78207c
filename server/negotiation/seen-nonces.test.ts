import { describe, expect, it } from 'vitest';
import { SeenNonces } from './seen-nonces';

describe('SeenNonces (decisions-server.md §78)', () => {
  it('never forgets a nonce inside its window, however many others arrive: past the ceiling new ones are refused', () => {
    const seen = new SeenNonces(3);
    expect(seen.remember('did:key:party', 'captured', 1_120, 1_000)).toEqual({ ok: true });
    for (const n of ['a', 'b']) expect(seen.remember('did:key:other', n, 1_120, 1_000).ok).toBe(true);
    expect(seen.remember('did:key:other', 'c', 1_120, 1_000)).toEqual({
      ok: false,
      reason: 'full',
      retryAfterSeconds: 121,
    });
    // The captured signature still replays as a replay.
    expect(seen.remember('did:key:party', 'captured', 1_120, 1_001)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('forgets a nonce once its window closed, and takes new ones then', () => {
    const seen = new SeenNonces(2);
    expect(seen.remember('did:key:party', 'n1', 1_120, 1_000).ok).toBe(true);
    expect(seen.remember('did:key:party', 'n2', 1_130, 1_010).ok).toBe(true);
    expect(seen.remember('did:key:party', 'n3', 1_140, 1_020).ok).toBe(false);
    expect(seen.remember('did:key:party', 'n3', 1_241, 1_121)).toEqual({ ok: true });
    expect(seen.size).toBe(2);
  });
});
