// The request log over a real Hono app: the route pattern rather than the URL, the request id
// both ways, probes at debug, and an event stream logged when it ends.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../test-support/captured-logs';
import { moduleLogger } from './logger';
import { requestLog } from './request-log';

let captured: CapturedLogs | undefined;
afterEach(() => captured?.restore());

function app() {
  let finish: (() => void) | undefined;
  const hono = new Hono()
    .use('*', requestLog(moduleLogger('http-test')))
    .get('/health', (c) => c.json({ ok: true }))
    .get('/rooms/:id', (c) => c.json({ id: c.req.param('id') }))
    .get('/boom', () => {
      throw new Error('boom');
    })
    .get('/stream', (c) =>
      streamSSE(c, async (stream) => {
        const finished = new Promise<void>((resolve) => (finish = resolve));
        await stream.writeSSE({ data: 'one' });
        await finished;
      }),
    );
  hono.onError((_error, c) => c.json({ code: 'INTERNAL_ERROR' }, 500));
  return { hono, finish: () => finish?.() };
}

describe('the request log', () => {
  it('logs the route pattern, never the path or the query with their tokens', async () => {
    captured = captureLogs('debug');
    const res = await app().hono.request('/rooms/secret-room-token?token=planted-query-token');
    expect(res.status).toBe(200);
    expect(captured.lines).toEqual([
      expect.objectContaining({ level: 'info', method: 'GET', route: '/rooms/:id', status: 200, msg: 'request' }),
    ]);
    expect(captured.lines[0]!.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(captured.lines)).not.toMatch(/planted|secret-room-token/);
  });

  it('sends its request id back, keeps a safe inbound one and replaces an unsafe one', async () => {
    captured = captureLogs('info');
    const { hono } = app();
    const kept = await hono.request('/rooms/a', { headers: { 'x-request-id': 'edge-42.a_b:c' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-42.a_b:c');
    for (const unsafe of ['with space', 'x'.repeat(65), '<script>', 'a\u00e9']) {
      const res = await hono.request('/rooms/a', { headers: { 'x-request-id': unsafe } });
      expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9_-]{16}$/);
    }
    const ids = captured.lines.map((l) => l.reqId);
    expect(ids[0]).toBe('edge-42.a_b:c');
    expect(new Set(ids).size).toBe(5);
    expect(ids.slice(1).every((id) => typeof id === 'string' && /^[A-Za-z0-9_-]{16}$/.test(id))).toBe(true);
  });

  it('logs probes at debug, so info leaves them out, and a 5xx at error', async () => {
    captured = captureLogs('info');
    const { hono } = app();
    await hono.request('/health');
    await hono.request('/boom');
    expect(captured.lines).toEqual([expect.objectContaining({ level: 'error', route: '/boom', status: 500 })]);
  });

  it('logs an event stream when it ends, not when its headers are sent', async () => {
    captured = captureLogs('info');
    const { hono, finish } = app();
    const res = await hono.request('/stream');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: one');
    expect(captured.lines).toEqual([]);
    finish();
    while (!(await reader.read()).done);
    expect(captured.lines).toEqual([expect.objectContaining({ route: '/stream', status: 200 })]);
  });

  it('logs an event stream the client cancels', async () => {
    captured = captureLogs('info');
    const res = await app().hono.request('/stream');
    const reader = res.body!.getReader();
    await reader.read();
    expect(captured.lines).toEqual([]);
    await reader.cancel();
    expect(captured.lines).toEqual([expect.objectContaining({ route: '/stream', status: 200 })]);
  });
});
