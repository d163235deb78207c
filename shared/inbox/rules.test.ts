import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GRANT_BUDGET_SHARE,
  GRANT_TIME_LEFT_MS,
  grantAttention,
  quoteOf,
  REJECT_WINDOW_MS,
  repeatedRejects,
  sayAnswers,
  type GrantFacts,
} from './rules';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const S = Math.floor(NOW / 1000);
const grant = (over: Partial<GrantFacts> = {}): GrantFacts => ({
  maxMessages: 10,
  spent: 0,
  expiresAt: S + 600,
  grantedAt: S - 60,
  endedAt: null,
  ...over,
});

describe('grantAttention', () => {
  it('says nothing of a grant with time and budget to spare, an ended one or one already past', () => {
    expect(grantAttention(grant(), NOW)).toBeNull();
    expect(grantAttention(grant({ expiresAt: S + 60, endedAt: NOW }), NOW)).toBeNull();
    expect(grantAttention(grant({ expiresAt: S - 5 }), NOW)).toBeNull();
    expect(grantAttention(grant({ spent: 10 }), NOW)).toBeNull();
  });

  it('flags under two minutes left as time, urgent under thirty seconds; the grant lives through its last second', () => {
    expect(grantAttention(grant({ expiresAt: S + 90 }), NOW)).toMatchObject({
      urgency: 'soon',
      reason: 'time',
      msLeft: 91_000,
      dueAt: (S + 91) * 1000,
      since: (S + 91) * 1000 - GRANT_TIME_LEFT_MS,
    });
    expect(grantAttention(grant({ expiresAt: S + 10 }), NOW)?.urgency).toBe('now');
    expect(grantAttention(grant({ expiresAt: S + 119 }), NOW)).toBeNull();
  });

  it('flags under a fifth of the budget left as budget, urgent at the last message', () => {
    expect(grantAttention(grant({ spent: 8 }), NOW)).toBeNull();
    expect(grantAttention(grant({ spent: 9 }), NOW)).toMatchObject({
      urgency: 'now',
      reason: 'budget',
      budgetLeft: 1,
      since: (S - 60) * 1000,
    });
    expect(grantAttention(grant({ maxMessages: 100, spent: 85 }), NOW)).toMatchObject({
      urgency: 'soon',
      budgetLeft: 15,
    });
  });

  it('flags exactly the live grants short of time or budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.nat(10_000),
        fc.integer({ min: -10, max: 3600 }),
        (max, spentRaw, secondsLeft) => {
          const spent = Math.min(spentRaw, max);
          const facts = grant({ maxMessages: max, spent, expiresAt: S + secondsLeft });
          const seen = grantAttention(facts, NOW);
          const msLeft = (secondsLeft + 1) * 1000;
          const left = max - spent;
          const live = msLeft > 0 && left > 0;
          const short = msLeft < GRANT_TIME_LEFT_MS || left < max * GRANT_BUDGET_SHARE;
          expect(seen !== null).toBe(live && short);
          if (seen) expect(seen.since).toBeLessThanOrEqual(NOW);
        },
      ),
    );
  });
});

describe('repeatedRejects', () => {
  it('needs five rejects inside ten minutes; older ones and future ones do not count', () => {
    const four = [1, 2, 3, 4].map((m) => NOW - m * 60_000);
    expect(repeatedRejects(four, NOW)).toBeNull();
    expect(repeatedRejects([...four, NOW - REJECT_WINDOW_MS], NOW)).toBeNull();
    expect(repeatedRejects([...four, NOW + 1], NOW)).toBeNull();
    expect(repeatedRejects([...four, NOW - 9 * 60_000], NOW)).toEqual({ count: 5, since: NOW - 9 * 60_000 });
  });

  it('counts what the window holds, whatever the order of the times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: NOW - 2 * REJECT_WINDOW_MS, max: NOW }), { maxLength: 40 }), (times) => {
        const inside = times.filter((t) => t > NOW - REJECT_WINDOW_MS);
        const burst = repeatedRejects(times, NOW);
        expect(burst).toEqual(inside.length >= 5 ? { count: inside.length, since: Math.min(...inside) } : null);
        expect(repeatedRejects([...times].reverse(), NOW)).toEqual(burst);
      }),
    );
  });
});

describe('sayAnswers', () => {
  const pub = (text: string) => ({ text, toAgent: null });
  it('counts a say that names the agent, with or without @, as a word of its own', () => {
    expect(sayAnswers(pub('@agent.analyst use plan B'), 'agent.analyst')).toBe(true);
    expect(sayAnswers(pub('agent.analyst: yes.'), 'agent.analyst')).toBe(true);
    expect(sayAnswers(pub('Thanks, agent.analyst.'), 'agent.analyst')).toBe(true);
    expect(sayAnswers(pub('agent.analyst2 go ahead'), 'agent.analyst')).toBe(false);
    expect(sayAnswers(pub('my.agent.analyst go ahead'), 'agent.analyst')).toBe(false);
    expect(sayAnswers(pub('agent.analyst.v2 go ahead'), 'agent.analyst')).toBe(false);
    expect(sayAnswers(pub('everyone: go ahead'), 'agent.analyst')).toBe(false);
  });

  it("counts any say to the agent's own inbox, and only that agent's", () => {
    expect(sayAnswers({ text: 'yes', toAgent: 'agent.analyst' }, 'agent.analyst')).toBe(true);
    expect(sayAnswers({ text: 'agent.analyst yes', toAgent: 'agent.other' }, 'agent.analyst')).toBe(false);
  });

  it('reads an id with regex characters as text', () => {
    expect(sayAnswers(pub('a+b yes'), 'a+b')).toBe(true);
    expect(sayAnswers(pub('aab yes'), 'a+b')).toBe(false);
  });
});

describe('quoteOf', () => {
  it('makes bidi controls visible and drops other controls: a quote cannot reverse what it reads as (decisions-server.md §82)', () => {
    expect(quoteOf('pay to evil\u202Etxt.exe')).toBe('pay to evil\u2426txt.exe');
    for (const control of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ])
      expect(quoteOf(`a${control}b`)).toBe('a\u2426b');
    expect(quoteOf('a\u0000b\u001bc\u009bd')).toBe('abcd');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(quoteOf(s)).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u);
      }),
    );
  });

  it('folds whitespace and trims to the bound with an ellipsis', () => {
    expect(quoteOf('  a\n\n b\t c ')).toBe('a b c');
    const long = quoteOf('x'.repeat(500));
    expect(long).toHaveLength(280);
    expect(long.endsWith('…')).toBe(true);
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (s) => {
        expect(quoteOf(s).length).toBeLessThanOrEqual(280);
      }),
    );
  });
});
