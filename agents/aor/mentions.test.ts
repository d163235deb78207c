// Mentions in a `say` (AOR §5.1 "may include @agent mentions"): the project's grammar.
import { describe, expect, it } from 'vitest';
import { mentionsAgent, withoutMention } from './mentions';

describe('mentionsAgent (decision "mentions")', () => {
  it.each([
    ['@agent.researcher Mosquitto, please.', true],
    ['Thanks @agent.researcher.', true],
    ['@agent.researcher: use EU', true],
    ['(@agent.researcher) yes', true],
    ['cc @agent.analyst, @agent.researcher', true],
    ['@agent.researcher.v2 not you', false],
    ['@agent.researcher-2 not you', false],
    ['@agent.researchers all of you', false],
    ['mail me at x@agent.researcher', false],
    ['agent.researcher without the at sign', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(mentionsAgent(text, 'agent.researcher')).toBe(expected);
  });

  it('finds a later exact mention after a longer one', () => {
    expect(mentionsAgent('@agent.researcher.v2 and @agent.researcher', 'agent.researcher')).toBe(true);
  });

  it('strips the mention to leave the answer', () => {
    expect(withoutMention('@agent.researcher Mosquitto, please.', 'agent.researcher')).toBe('Mosquitto, please.');
    expect(withoutMention('@agent.researcher: EU only', 'agent.researcher')).toBe('EU only');
  });
});
