import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { VERSION } from '../version';

const store = new SqliteStore({ file: ':memory:' });
afterAll(() => store.close());

describe('GET /health', () => {
  const app = testApp({ staticDir: '/nonexistent', store });

  it('reports ok and the package version', async () => {
    const res = await app.request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, version: VERSION, agora: '1.0' });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('sends a strict Content-Security-Policy and refuses framing', async () => {
    // JSON is never a page: opened as a document it runs and loads nothing (decisions-server.md §89;
    // the page's own policy is checked on the shell in server/http/first-load-headers.test.ts).
    const res = await app.request('/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline|nonce/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers unknown API paths with a coded 404', async () => {
    const res = await app.request('/api/nope');
    expect(res.status).toBe(404);
    const unbuilt = await app.request('/rooms');
    expect(unbuilt.status).toBe(503); // no build in /nonexistent: the SPA fallback says how to build
    expect(await unbuilt.text()).toMatch(/npm run build/);
    const built = testApp({ staticDir: new URL('../test-fixtures/spa', import.meta.url).pathname, store });
    const missing = await built.request('/api/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    const deepLink = await built.request('/rooms/demo');
    expect(deepLink.status).toBe(200);
    expect(await deepLink.text()).toContain('fixture shell');
  });
});
