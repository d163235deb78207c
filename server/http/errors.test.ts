// The one error handler: the status comes from the error, the body's shape from the route family.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { agoraError } from '@shared/agora/reject-reasons';
import { CodedError } from '@shared/errors';
import { agoraErrors, AgoraRefusal, rateLimited } from './error-family';
import { handleError } from './errors';
import { readBodyText } from './request-body';

const app = new Hono()
  .post('/coded/body', async (c) => c.json(await readBodyText(c, 8), 200))
  .post('/agora/body', agoraErrors, async (c) => c.json(await readBodyText(c, 8), 200))
  .get('/coded/limited', () => {
    throw rateLimited(7, 'tests');
  })
  .get('/agora/limited', agoraErrors, () => {
    throw rateLimited(7, 'tests');
  })
  .get('/agora/refusal', agoraErrors, () => {
    throw new AgoraRefusal(agoraError('thread_closed', 'closed'));
  })
  .get('/agora/coded', agoraErrors, () => {
    throw new CodedError('INSUFFICIENT_BALANCE', 'poor');
  });
app.onError(handleError);

const send = async (path: string, body?: BodyInit) => {
  const res = await app.request(path, body === undefined ? {} : { method: 'POST', body });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown };
};

describe('handleError', () => {
  it('answers a body past its cap 413 PAYLOAD_TOO_LARGE, and on an Agora route as the relay reason payload_too_large', async () => {
    expect(await send('/coded/body', '123456789')).toEqual({
      status: 413,
      retryAfter: null,
      body: { code: 'PAYLOAD_TOO_LARGE', message: 'A request body may be at most 8 bytes.', details: { limit: 8 } },
    });
    expect(await send('/agora/body', '123456789')).toEqual({
      status: 413,
      retryAfter: null,
      body: {
        ok: false,
        code: 'INVALID_REQUEST',
        message: 'A request body may be at most 8 bytes.',
        details: { limit: 8, reason: 'payload_too_large' },
      },
    });
  });

  it('refuses bytes that are not UTF-8: INVALID_REQUEST, not_json on an Agora route', async () => {
    expect(await send('/coded/body', new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST', message: 'The body is not UTF-8 text.' },
    });
    expect(await send('/agora/body', new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({
      status: 400,
      body: { ok: false, code: 'INVALID_REQUEST', details: { reason: 'not_json' } },
    });
  });

  it('sets Retry-After on 429 in both families', async () => {
    expect(await send('/coded/limited')).toEqual({
      status: 429,
      retryAfter: '7',
      body: { code: 'RATE_LIMITED', message: 'Too many tests; try again in 7 s.', details: { retryAfterSeconds: 7 } },
    });
    expect(await send('/agora/limited')).toMatchObject({
      status: 429,
      retryAfter: '7',
      body: { ok: false, code: 'RATE_LIMITED' },
    });
  });

  it('takes an Agora refusal status from its reason, a coded error status from its code', async () => {
    expect(await send('/agora/refusal')).toEqual({
      status: 409,
      retryAfter: null,
      body: { ok: false, code: 'INVALID_REQUEST', message: 'closed', details: { reason: 'thread_closed' } },
    });
    expect(await send('/agora/coded')).toEqual({
      status: 402,
      retryAfter: null,
      body: { ok: false, code: 'INSUFFICIENT_BALANCE', message: 'poor' },
    });
  });
});
