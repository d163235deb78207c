// The answer check every test app runs (contract-check.ts) must be able to fail: it finds the
// operation a request is answered by, and refuses an answer outside its schema or status.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { checkAnswers, contractProblem, operationFor } from './contract-check';

describe('contract check', () => {
  it('finds the operation, a literal path before a parameter, the proxy path over several segments', () => {
    expect(operationFor('GET', '/api/services/watched')?.path).toBe('/api/services/watched');
    expect(operationFor('DELETE', '/api/services/svc_1')?.path).toBe('/api/services/{id}');
    expect(operationFor('GET', '/api/external/svc_1/oap/negotiation/n1/agreement')?.path).toBe(
      '/api/external/{serviceId}/oap/{path}',
    );
    expect(operationFor('GET', '/nowhere')).toBeUndefined();
  });

  it('names an answer outside its schema, an undeclared status and an undeclared route; passes a kept one', () => {
    expect(contractProblem('GET', '/health', 200, { ok: true, version: '1', agora: '1.0' })).toBeNull();
    expect(contractProblem('GET', '/health', 200, { ok: true, version: 1, agora: '1.0' })).toMatch(/version/);
    expect(contractProblem('GET', '/health', 201, { ok: true, version: '1', agora: '1.0' })).toMatch(/201/);
    expect(contractProblem('GET', '/nowhere', 200, {})).toMatch(/no operation/);
  });

  it('makes the request throw on a drifting answer, and leaves errors and non-JSON answers alone', async () => {
    const app = checkAnswers(
      new Hono()
        .get('/health', (c) => c.json({ ok: true, version: 1 }, 200))
        .get('/ready', (c) => c.json({ anything: true }, 503))
        .get('/', (c) => c.html('<p>shell</p>')),
    );
    await expect(app.request('/health')).rejects.toThrow(/contract: GET \/health/);
    expect((await app.request('/ready')).status).toBe(503);
    expect((await app.request('/')).status).toBe(200);
  });
});
