import { describe, expect, it } from 'vitest';
import { parseAgentsQuery } from './agents-query';

describe('parseAgentsQuery', () => {
  it('reads capability and scope, both optional, and ignores other parameters', () => {
    expect(parseAgentsQuery({})).toEqual({ ok: true, value: {} });
    expect(parseAgentsQuery({ capability: 'example_capability', scope: 'private', page: '2' })).toEqual({
      ok: true,
      value: { capability: 'example_capability', scope: 'private' },
    });
    expect(parseAgentsQuery({ capability: null, scope: undefined })).toEqual({ ok: true, value: {} });
  });

  it('takes single-element arrays (repeatable-parameter APIs) but refuses a repeated parameter', () => {
    expect(parseAgentsQuery({ scope: ['public'] })).toEqual({ ok: true, value: { scope: 'public' } });
    const repeated = parseAgentsQuery({ scope: ['public', 'private'] });
    expect(!repeated.ok && repeated.error).toMatchObject({
      code: 'OSNAP_INVALID_QUERY',
      details: { parameter: 'scope' },
    });
  });

  it('refuses a scope other than public|private and an empty capability', () => {
    for (const params of [{ scope: 'all' }, { scope: 'PUBLIC' }, { capability: '' }]) {
      const result = parseAgentsQuery(params);
      expect(result.ok || result.error.code).toBe('OSNAP_INVALID_QUERY');
    }
  });
});
