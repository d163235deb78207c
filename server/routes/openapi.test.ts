// The served OpenAPI document parses as OpenAPI 3.1 and every path it lists is served.
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { SqliteStore } from '../store/sqlite/sqlite-store';

const store = new SqliteStore({ file: ':memory:' });
afterAll(() => store.close());
const app = testApp({ staticDir: '/nonexistent', store });

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document whose every listed operation is routed (no 404 NOT_FOUND)', async () => {
    const res = await app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = JSON.parse(await res.text()) as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.entries(doc.paths);
    expect(paths.map(([path]) => path)).toEqual(expect.arrayContaining(['/events', '/health', '/ready', '/seed', '/agents', '/agents/query', '/agents/{did}/tools',
      '/oap/manifest', '/oap/negotiation/open', '/oap/negotiation/{id}', '/oap/negotiation/{id}/propose', '/oap/negotiation/{id}/accept',
      '/oap/negotiation/{id}/reject', '/oap/negotiation/{id}/withdraw', '/oap/negotiation/{id}/agreement', '/oap/negotiation/{id}/agreement/cosign',
      '/oap/transparency-log', '/oap/transparency-log/{index}', '/oap/transparency-log/{index}/proof', '/oap/transparency-log/{index}/redact',
      '/api/negotiations', '/api/negotiations/{id}']));
    for (const [path, operations] of paths) {
      for (const method of Object.keys(operations)) {
        const url = `${path.replace('{did}', 'did:key:z6MkNotRegistered').replace('{id}', 'neg_NOTTHERE').replace('{index}', '0')}${path === '/events' && method === 'get' ? '?since=cur_0&timeout=0' : ''}`;
        const answer = await app.request(url, { method: method.toUpperCase(), headers: { 'content-type': 'application/json' }, ...(method === 'post' ? { body: '{}' } : {}) });
        const body = (await answer.json()) as { code?: string; message?: string };
        // Served routes answer with their own codes; only an unrouted path says "No route for".
        expect({ path, method, routed: !(body.message ?? '').startsWith('No route for') }).toEqual({ path, method, routed: true });
      }
    }
    // Every $ref resolves.
    for (const match of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas).toHaveProperty(match[1]!);
  });
});
