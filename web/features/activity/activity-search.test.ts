import { describe, expect, it } from 'vitest';
import { parseActivitySearch } from './activity-search';

describe('the activity log address', () => {
  it('keeps known filters and drops the rest', () => {
    expect(parseActivitySearch({ target: ' agent.a ', kind: 'agent', room: 'ops', actor: 'cli' })).toEqual({
      target: 'agent.a',
      kind: 'agent',
      room: 'ops',
      actor: 'cli',
    });
    expect(parseActivitySearch({ kind: 'people', target: '', room: 5, actor: 'x'.repeat(201) })).toEqual({});
  });
});
