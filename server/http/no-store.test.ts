// Authenticated JSON is never cached (decisions-server.md §82): every JSON answer to a request
// carrying a session lists `Cache-Control: no-store`, errors included; public answers are left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullApp, type FullApp } from '../test-support/full-app';

let f: FullApp;
beforeAll(async () => {
  f = await fullApp();
});
afterAll(async () => f.close());

const PATHS = [
  '/api/rooms',
  '/api/inbox',
  '/api/agent-accounts',
  '/api/webhooks',
  '/api/negotiations',
  '/api/agora/threads',
  '/api/services',
  '/api/presence',
  '/api/auth/session',
  '/api/rooms/no-such-room',
];

describe('Cache-Control on authenticated JSON', () => {
  it.each(PATHS)('GET %s with a session answers no-store', async (path) => {
    for (const cookie of [f.facilitator, f.observer]) {
      const res = await f.app.request(path, { headers: { cookie } });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect({ path, cacheControl: res.headers.get('cache-control') }).toEqual({ path, cacheControl: 'no-store' });
    }
  });

  it('leaves public answers to their routes', async () => {
    expect((await f.app.request('/openapi.json')).headers.get('cache-control')).toBeNull();
  });
});
