import { describe, expect, it } from 'vitest';
import { envServiceId, normaliseBaseUrl, parseExternalServices, ServicesConfigError } from './services-config';

describe('EXTERNAL_SERVICES', () => {
  it('is empty when unset or blank', () => {
    expect(parseExternalServices(undefined)).toEqual([]);
    expect(parseExternalServices('  ')).toEqual([]);
  });

  it('reads the compact form: kind|name|url[|ro], entries separated by ;', () => {
    expect(
      parseExternalServices(
        ' relay|Acme relay|https://relay.acme.example/|ro ; negotiation|Acme deals|http://deals.acme.example:8080/base ;',
      ),
    ).toEqual([
      { name: 'Acme relay', baseUrl: 'https://relay.acme.example', kind: 'relay', readOnly: true },
      { name: 'Acme deals', baseUrl: 'http://deals.acme.example:8080/base', kind: 'negotiation', readOnly: false },
    ]);
  });

  it('reads the JSON form', () => {
    expect(parseExternalServices('[{"name":"Partner","url":"https://p.example","kind":"relay"}]')).toEqual([
      { name: 'Partner', baseUrl: 'https://p.example', kind: 'relay', readOnly: false },
    ]);
  });

  it.each([
    ['not JSON', '[{"name":', /not valid JSON/],
    ['a JSON entry without a kind', '[{"name":"P","url":"https://p.example"}]', /EXTERNAL_SERVICES: entry/],
    ['an unknown kind', 'mailbox|P|https://p.example', /entry 1 must be kind\|name\|url/],
    ['a flag other than ro', 'relay|P|https://p.example|rw', /entry 1 must be kind\|name\|url\[\|ro\]/],
    ['too many fields', 'relay|P|https://p.example|ro|x', /entry 1/],
    ['a non-http URL', 'relay|P|ftp://p.example', /http\(s\) URL/],
    ['credentials in the URL', 'relay|P|https://user:pw@p.example', /without credentials/],
    ['a query in the URL', 'relay|P|https://p.example/?a=1', /query/],
    ['the same name twice', 'relay|P|https://a.example;relay|P|https://b.example', /names "P" \(relay\) twice/],
  ])('refuses %s in one line naming the variable', (_case, value, message) => {
    let error: unknown;
    try {
      parseExternalServices(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServicesConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/EXTERNAL_SERVICES/);
    expect((error as Error).message).not.toContain('\n');
  });

  it('gives an env entry a stable id from its kind and name', () => {
    expect(envServiceId({ kind: 'relay', name: 'Acme Relay (EU)!' })).toBe('env-relay-acme-relay-eu');
    expect(envServiceId({ kind: 'negotiation', name: '***' })).toBe('env-negotiation-service');
    expect(normaliseBaseUrl('https://x.example//')).toBe('https://x.example');
    expect(normaliseBaseUrl('javascript:alert(1)')).toBeUndefined();
  });
});
