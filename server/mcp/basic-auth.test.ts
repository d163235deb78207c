import { describe, expect, it } from 'vitest';
import { basicAuthHeader, parseBasicAuth } from './basic-auth';

describe('parseBasicAuth', () => {
  it('reads back what basicAuthHeader writes, a colon in the credential included', () => {
    expect(parseBasicAuth(basicAuthHeader('agent.helper', 'se:cret'))).toEqual({
      agentId: 'agent.helper',
      password: 'se:cret',
    });
  });

  it('is no credential for another scheme, an empty part, an invalid agent id or an overlong header', () => {
    expect(parseBasicAuth('Bearer abc')).toBeUndefined();
    expect(parseBasicAuth(basicAuthHeader('agent.helper', ''))).toBeUndefined();
    expect(parseBasicAuth(`Basic ${Buffer.from(':pw').toString('base64')}`)).toBeUndefined();
    expect(parseBasicAuth(basicAuthHeader('rooms/+/x', 'pw'))).toBeUndefined();
    expect(parseBasicAuth(basicAuthHeader('agent.helper', 'x'.repeat(2000)))).toBeUndefined();
    expect(parseBasicAuth('Basic !!!')).toBeUndefined();
    expect(parseBasicAuth('')).toBeUndefined();
  });
});
