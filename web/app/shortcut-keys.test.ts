import { describe, expect, it } from 'vitest';
import { idle, matchKey, takesText, SEQUENCE_MS, SHORTCUTS } from './shortcut-keys';

describe('shortcut keys', () => {
  it('opens help on ? and search on /', () => {
    expect(matchKey(idle, '?', 0).action).toBe('help');
    expect(matchKey(idle, '/', 0).action).toBe('search');
  });

  it('matches g r and g i within a second, case-insensitively', () => {
    const g = matchKey(idle, 'g', 1000);
    expect(g.action).toBeNull();
    expect(matchKey(g.state, 'r', 1500)).toEqual({ action: { goTo: '/rooms' }, state: idle });
    expect(matchKey(matchKey(idle, 'G', 0).state, 'I', 10).action).toEqual({ goTo: '/' });
    // Too late for `g r`: the `r` alone is the review queue's reject key.
    expect(matchKey(g.state, 'r', 1000 + SEQUENCE_MS + 1).action).toEqual({ review: 'reject' });
    expect(matchKey(g.state, 'x', 1100)).toEqual({ action: null, state: idle });
  });

  it('hands J/K/A/R, either case, to the review list, unless they finish a g sequence', () => {
    expect(['j', 'K', 'a', 'R'].map((k) => matchKey(idle, k, 0))).toEqual(
      (['next', 'previous', 'approve', 'reject'] as const).map((review) => ({ action: { review }, state: idle })),
    );
    expect(matchKey(matchKey(idle, 'g', 0).state, 'a', 10).action).toEqual({ goTo: '/fleet' });
    expect(matchKey(matchKey(idle, 'g', 0).state, 'k', 10).action).toEqual({ goTo: '/tasks' });
    expect(matchKey(idle, 'x', 0).action).toBeNull();
  });

  it('leaves letters typed into text fields alone, but not those pressed on a checkbox or button', () => {
    const field = (tagName: string, type?: string) => takesText({ tagName, ...(type ? { type } : {}) });
    expect(field('INPUT')).toBe(true);
    expect(field('INPUT', 'search')).toBe(true);
    expect(field('TEXTAREA')).toBe(true);
    expect(field('SELECT')).toBe(true);
    expect(takesText({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(field('INPUT', 'checkbox')).toBe(false);
    expect(field('BUTTON')).toBe(false);
  });

  it('goes to the Agora directory with g d and to threads with g t', () => {
    expect(matchKey(matchKey(idle, 'g', 0).state, 'd', 10).action).toEqual({ goTo: '/directory' });
    expect(matchKey(matchKey(idle, 'g', 0).state, 'T', 10).action).toEqual({ goTo: '/threads' });
    expect(matchKey(matchKey(idle, 'g', 0).state, 's', 10).action).toEqual({ goTo: '/scheduling' });
    expect(matchKey(matchKey(idle, 'g', 0).state, 'k', 10).action).toEqual({ goTo: '/tasks' });
  });

  it('goes to negotiations with g n and to the transparency log with g l', () => {
    expect(matchKey(matchKey(idle, 'g', 0).state, 'n', 100).action).toEqual({ goTo: '/negotiations' });
    expect(matchKey(matchKey(idle, 'g', 0).state, 'L', 100).action).toEqual({ goTo: '/transparency-log' });
    expect(SHORTCUTS.map((s) => s.keys.join(' '))).toEqual(expect.arrayContaining(['g n', 'g l']));
  });

  it('lists every key the review queue and the tail use', () => {
    const keys = SHORTCUTS.map((s) => s.keys.join(' '));
    for (const k of ['?', 'g r', 'g d', 'g t', '/', 'Esc', 'Space', 'J', 'K', 'A', 'R']) expect(keys).toContain(k);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('switches presenter mode on p (one key, listed behind ?) and goes to the guided demo with g m', () => {
    expect(matchKey(idle, 'p', 0)).toEqual({ action: 'presenter', state: idle });
    expect(matchKey(matchKey(idle, 'g', 0).state, 'm', 10).action).toEqual({ goTo: '/demo' });
    const keys = SHORTCUTS.map((s) => s.keys.join(' '));
    expect(keys).toEqual(expect.arrayContaining(['p', 'g m']));
    expect(keys.filter((k) => k.toLowerCase() === 'p')).toHaveLength(1);
  });
});
