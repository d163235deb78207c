import { describe, expect, it } from 'vitest';
import { filterDirectory, matchesSearch, matchesCard, matchingTools, type SearchableAgent } from './directory-search';

const translator: SearchableAgent = {
  agent_id: 'did:key:z6MkTranslator',
  agent_name: 'Demo Translator',
  agent_description: 'Translates short English phrases',
  tools: {
    'translation.en_zh': { description: 'Translate English text to Chinese' },
    'translation.en_fr': { description: 'Translate English text to French' },
  },
  presence: { status: 'online' },
};
const weather: SearchableAgent = {
  agent_id: 'did:key:z6MkWeather',
  agent_name: 'Demo Weather',
  tools: { 'weather.current': { description: 'Current conditions for a city' } },
  presence: { status: 'offline' },
};

describe('directory search', () => {
  it('finds an agent by a capability name, a word of a description, or its own name, case-insensitively', () => {
    expect(filterDirectory([translator, weather], { text: 'translation', presence: 'any' })).toEqual([translator]);
    expect(filterDirectory([translator, weather], { text: 'CITY', presence: 'any' })).toEqual([weather]);
    expect(filterDirectory([translator, weather], { text: 'demo', presence: 'any' })).toEqual([translator, weather]);
    expect(filterDirectory([translator, weather], { text: '  ', presence: 'any' })).toEqual([translator, weather]);
  });

  it('needs every word of the query (AND), so a longer query narrows', () => {
    expect(matchesSearch(translator, { text: 'translate french', presence: 'any' })).toBe(true);
    expect(matchesSearch(translator, { text: 'translate weather', presence: 'any' })).toBe(false);
  });

  it('filters by presence, together with the text', () => {
    expect(filterDirectory([translator, weather], { text: '', presence: 'offline' })).toEqual([weather]);
    expect(filterDirectory([translator, weather], { text: 'weather', presence: 'online' })).toEqual([]);
    expect(filterDirectory([translator, weather], { text: '', presence: 'unknown' })).toEqual([]);
  });

  it('names the tools that matched, so the card can show why it is listed', () => {
    expect(matchingTools(translator, 'french')).toEqual(['translation.en_fr']);
    expect(matchingTools(translator, 'en_zh')).toEqual(['translation.en_zh']);
    expect(matchingTools(translator, '')).toEqual([]);
  });

  it('searches an imported card by its name, description and skills (names, descriptions, tags)', () => {
    const imported = {
      card: {
        name: 'Travel planner',
        description: 'Plans trips',
        skills: [{ name: 'Book a flight', description: 'Finds flights', tags: ['airline'] }],
      },
    };
    expect(matchesCard(imported, '')).toBe(true);
    expect(matchesCard(imported, 'TRAVEL')).toBe(true);
    expect(matchesCard(imported, 'airline flight')).toBe(true);
    expect(matchesCard(imported, 'hotel')).toBe(false);
  });
});
