import { describe, expect, it } from 'vitest';
import { completeMention, matchAgents, mentionAt } from './mention-complete';

describe('mentionAt', () => {
  it('finds the mention the caret ends, at the start or after a space', () => {
    expect(mentionAt('@ag', 3)).toEqual({ start: 0, query: 'ag' });
    expect(mentionAt('thanks @agent.re', 16)).toEqual({ start: 7, query: 'agent.re' });
    expect(mentionAt('thanks @', 8)).toEqual({ start: 7, query: '' });
  });

  it('is not a mention inside a word, after the caret has left it, or without an @', () => {
    expect(mentionAt('mail@agent', 10)).toBeNull();
    expect(mentionAt('@agent.x then', 13)).toBeNull();
    expect(mentionAt('plain text', 10)).toBeNull();
  });
});

describe('matchAgents', () => {
  const agents = ['agent.analyst', 'agent.researcher', 'agent.rogue', 'helper.research'];
  it('puts ids that start with the query first, then ids that contain it, case-insensitively', () => {
    expect(matchAgents(agents, 'agent.r')).toEqual(['agent.researcher', 'agent.rogue']);
    expect(matchAgents(agents, 'HELPER')).toEqual(['helper.research']);
    expect(matchAgents(agents, 'research')).toEqual(['agent.researcher', 'helper.research']);
    expect(matchAgents(agents, 'r')).toEqual(['agent.researcher', 'agent.rogue', 'helper.research']);
    expect(matchAgents(agents, '')).toEqual(agents);
    expect(matchAgents(agents, '', 2)).toEqual(['agent.analyst', 'agent.researcher']);
  });
});

describe('completeMention', () => {
  it('replaces the typed part with the full id and a space, and puts the caret after it', () => {
    const text = 'hi @agent.r';
    const at = mentionAt(text, text.length)!;
    expect(completeMention(text, text.length, at, 'agent.rogue')).toEqual({ text: 'hi @agent.rogue ', caret: 16 });
  });

  it('keeps what follows the caret, and the rest of a half-typed id is replaced', () => {
    const text = '@ag, please';
    const at = mentionAt(text, 3)!;
    expect(completeMention(text, 3, at, 'agent.analyst')).toEqual({ text: '@agent.analyst, please', caret: 14 });
    const mid = '@agxyz rest';
    expect(completeMention(mid, 3, mentionAt(mid, 3)!, 'agent.a')).toEqual({ text: '@agent.a rest', caret: 9 });
  });
});
