import { describe, expect, it } from 'vitest';
import { parseSourceSearch } from './source-search';

describe('parseSourceSearch', () => {
  it('keeps an external service id', () => {
    expect(parseSourceSearch({ source: 'svc_1a2b3c4d' })).toEqual({ source: 'svc_1a2b3c4d' });
    expect(parseSourceSearch({ source: 'env-relay-acme-relay' })).toEqual({ source: 'env-relay-acme-relay' });
  });

  it('reads the built-in services, a missing or a malformed source as built-in', () => {
    expect(parseSourceSearch({})).toEqual({});
    expect(parseSourceSearch({ source: 'builtin-relay' })).toEqual({});
    expect(parseSourceSearch({ source: 'builtin-negotiation' })).toEqual({});
    expect(parseSourceSearch({ source: '../api/services' })).toEqual({});
    expect(parseSourceSearch({ source: 42 })).toEqual({});
    expect(parseSourceSearch({ source: 'x'.repeat(121) })).toEqual({});
  });
});
