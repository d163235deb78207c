import { describe, expect, it } from 'vitest';
import { reviewModeWords } from './review-mode-words';

const op = (did: string, name: string | null) => ({ did, name, role: 'facilitator' as const, seenAt: 0 });

describe('review mode confirmation words', () => {
  it('says who else is in the room, and that every facilitator and agent is affected', () => {
    const on = reviewModeWords(true, [op('did:me', 'Me'), op('did:ana', 'Ana'), op('did:ben', 'Ben')], 'did:me');
    expect(on.title).toBe('Turn on review mode for everyone in this room?');
    expect(on.confirm).toBe('Turn on review mode');
    expect(on.who).toMatch(/^2 other operators have this room open \(Ana and Ben\)/);
    expect(on.who).toContain('every agent');
    expect(reviewModeWords(false, [op('did:me', 'Me'), op('did:ana', 'Ana')], 'did:me').who).toMatch(
      /^1 other operator has this room open \(Ana\)/,
    );
  });

  it('says so when nobody else is here, or when presence is not known yet', () => {
    expect(reviewModeWords(true, [op('did:me', 'Me')], 'did:me').who).toMatch(/^No other operator/);
    expect(reviewModeWords(false, undefined, 'did:me').who).toBe(
      'It applies to every facilitator and every agent in this room.',
    );
    expect(reviewModeWords(false, [], null).title).toBe('Turn off review mode for everyone in this room?');
  });
});
