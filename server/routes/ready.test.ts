import { describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { SqliteStore } from '../store/sqlite/sqlite-store';

describe('GET /ready', () => {
  it('is 200 when the store answers and every check passes', async () => {
    const store = new SqliteStore({ file: ':memory:' });
    const app = testApp({ staticDir: '/nonexistent', store, readiness: { broker: () => null } });
    const res = await app.request('/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true, checks: { store: 'ok', broker: 'ok' } });
    await store.close();
  });

  it('is a coded 503 naming the check that fails, with Retry-After', async () => {
    const store = new SqliteStore({ file: ':memory:' });
    let connected = false;
    const app = testApp({
      staticDir: '/nonexistent',
      store,
      readiness: { broker: () => (connected ? null : 'not connected') },
    });
    const res = await app.request('/ready');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({
      ready: false,
      code: 'NOT_READY',
      checks: { store: 'ok', broker: 'not connected' },
    });
    connected = true;
    expect((await app.request('/ready')).status).toBe(200);
    await store.close();
  });

  it('is 503 when the store cannot answer', async () => {
    const store = new SqliteStore({ file: ':memory:' });
    const app = testApp({ staticDir: '/nonexistent', store });
    await store.close();
    const res = await app.request('/ready');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks.store).not.toBe('ok');
  });
});
