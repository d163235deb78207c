import { describe, expect, it } from 'vitest';
import { changedSince, createSeenStore, isNewItem } from './seen-versions';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), raw: m };
};

describe('seen versions', () => {
  it('remembers the last version shown per negotiation, and says what changed since', () => {
    const store = createSeenStore(memory());
    expect(store.get('neg_a')).toBeNull();
    expect(changedSince(store.get('neg_a'), 3)).toBe(true);
    store.set('neg_a', { version: 3, items: 3 });
    expect(changedSince(store.get('neg_a'), 3)).toBe(false);
    expect(changedSince(store.get('neg_a'), 4)).toBe(true);
    expect([0, 2, 3, 4].map((i) => isNewItem(store.get('neg_a'), i))).toEqual([false, false, true, true]);
    // Nothing is "new" inside a negotiation never opened before: everything is.
    expect(isNewItem(null, 0)).toBe(false);
  });

  it('survives garbage in storage and keeps at most `max` entries, newest kept', () => {
    const mem = memory();
    mem.setItem('switchboard.negotiations.seen', 'not json');
    const store = createSeenStore(mem, 2);
    expect(store.get('x')).toBeNull();
    store.set('a', { version: 1, items: 1 });
    store.set('b', { version: 1, items: 1 });
    store.set('c', { version: 1, items: 1 });
    expect([store.get('a'), store.get('b') !== null, store.get('c') !== null]).toEqual([null, true, true]);
  });
});
