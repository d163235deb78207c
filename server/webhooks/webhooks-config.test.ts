// WEBHOOKS, ALLOW_PRIVATE_WEBHOOK_URLS, WEBHOOK_TIMEOUT_MS and WEBHOOK_RETRY_DELAYS_MS as loadConfig reads them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INBOX_KINDS } from '@shared/contract/inbox';
import { ConfigError, loadConfig } from '../config';
import { envWebhookId } from './webhooks-config';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-webhooks-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY';

describe('webhook configuration', () => {
  it('has no endpoints, checks addresses and uses the day-long schedule by default', () => {
    expect(loadConfig({}).webhooks).toEqual({ endpoints: [], allowPrivate: false, timeoutMs: 10_000 });
  });

  it('reads WEBHOOKS as JSON, with both events and every kind by default', () => {
    const config = loadConfig({
      WEBHOOKS: JSON.stringify([
        { url: 'https://hooks.example/a', secret: SECRET },
        { url: 'http://10.0.0.5:8080/b?token=t', secret: SECRET, events: ['inbox.item.removed'], kinds: ['service'] },
      ]),
      ALLOW_PRIVATE_WEBHOOK_URLS: '1',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_RETRY_DELAYS_MS: '100, 200,400',
    }).webhooks!;
    expect(config).toEqual({
      endpoints: [
        {
          url: 'https://hooks.example/a',
          secret: SECRET,
          events: ['inbox.item.added', 'inbox.item.removed'],
          kinds: [...INBOX_KINDS],
        },
        { url: 'http://10.0.0.5:8080/b?token=t', secret: SECRET, events: ['inbox.item.removed'], kinds: ['service'] },
      ],
      allowPrivate: true,
      timeoutMs: 2500,
      retryDelaysMs: [100, 200, 400],
    });
    expect(envWebhookId('https://hooks.example/a')).toBe(envWebhookId('https://hooks.example/a'));
    expect(envWebhookId('https://hooks.example/a')).not.toBe(envWebhookId('https://hooks.example/b'));
  });

  it('reads WEBHOOKS from a file when it is a path', () => {
    writeFileSync(join(dir, 'hooks.json'), JSON.stringify([{ url: 'https://hooks.example/f', secret: SECRET }]));
    expect(loadConfig({ WEBHOOKS: 'hooks.json' }, dir).webhooks!.endpoints.map((e) => e.url)).toEqual([
      'https://hooks.example/f',
    ]);
  });

  it.each([
    [
      'missing.json',
      /^WEBHOOKS must be a JSON array or the path of a file holding one; cannot read "missing.json" \(ENOENT\)/,
    ],
    ['[{"url":"https://a.example"', /^WEBHOOKS is not valid JSON/],
    [`[{"url":"https://a.example","secret":"short"}]`, /^WEBHOOKS: entry 0\.secret/],
    [`[{"url":"ftp://a.example","secret":"${SECRET}"}]`, /^WEBHOOKS\[0\]: url must be an http\(s\) URL/],
    [`[{"url":"https://a.example","secret":"${SECRET}","kinds":["all"]}]`, /^WEBHOOKS: entry 0\.kinds\.0/],
    [
      `[{"url":"https://a.example/","secret":"${SECRET}"},{"url":"https://a.example","secret":"${SECRET}"}]`,
      /^WEBHOOKS\[1\]: https:\/\/a\.example\/ is listed twice/,
    ],
  ])('refuses WEBHOOKS=%s with a one-line message naming it', (value, message) => {
    expect(() => loadConfig({ WEBHOOKS: value }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOKS: value }, dir)).toThrow(message);
  });

  it.each(['5', '10,x', '-10'])('refuses WEBHOOK_RETRY_DELAYS_MS=%s', (value) => {
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: value })).toThrow(/^WEBHOOK_RETRY_DELAYS_MS must be/);
  });
});
