// What server/hardening/http-fuzz.test.ts found, one regression test each (docs/security.md
// "Found by fuzzing"). The CSRF hole on POST /seed is in http-csrf.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../http/request-body';
import { MAX_ENVELOPE_BYTES } from '../relay/agora-relay';
import { fullApp, type FullApp } from '../test-support/full-app';
import { oversizeBody } from './hostile-bodies';

let f: FullApp;
const ORIGIN = 'http://localhost';
const send = (method: string, path: string, body: BodyInit, cookie = f.facilitator) =>
  f.app.request(path, { method, headers: { origin: ORIGIN, cookie, 'content-type': 'application/json' }, body });
const code = async (res: Response) => ((await res.json()) as { code: string }).code;
/** `{"id":"bad<0xFF>","name":"x"}`: JSON apart from one byte that is not UTF-8. */
const withInvalidByte = (before: string, after: string) =>
  new Uint8Array([...new TextEncoder().encode(before), 0xff, ...new TextEncoder().encode(after)]);

beforeAll(async () => {
  f = await fullApp();
});
afterAll(async () => f.close());

describe('found by the HTTP fuzz', () => {
  it('a zod-validated JSON body with bytes that are not UTF-8 is 400, not stored with U+FFFD (POST /api/rooms created one)', async () => {
    const res = await send('POST', '/api/rooms', withInvalidByte('{"id":"bad', '","name":"x"}'));
    expect(res.status).toBe(400);
    expect(await code(res)).toBe('INVALID_REQUEST');
    expect(await f.harness.store.rooms.listRooms()).toEqual([]);
    // The same body in UTF-8 is accepted (the check is not a blanket refusal).
    expect((await send('POST', '/api/rooms', '{"id":"good","name":"Grüße"}')).status).toBe(201);
  });

  it('the settings routes read JSON strictly too: invalid UTF-8 in a service or a watched DID is 400', async () => {
    const service = await send(
      'POST',
      '/api/services',
      withInvalidByte('{"name":"Relay', '","url":"http://127.0.0.1:9/","kind":"relay"}'),
    );
    expect(service.status).toBe(400);
    expect(await f.harness.store.services.listServices()).toEqual([]);
    expect((await send('POST', '/api/services/watched', withInvalidByte('{"did":"did:key:z6Mk', '"}'))).status).toBe(
      400,
    );
  });

  it('DELETE /api/services/watched/:did with something that is not a did:key is 400 (it answered 200)', async () => {
    const res = await f.app.request('/api/services/watched/not-a-did', {
      method: 'DELETE',
      headers: { origin: ORIGIN, cookie: f.facilitator },
    });
    expect(res.status).toBe(400);
    expect(await code(res)).toBe('INVALID_REQUEST');
  });

  it('every route has a body cap: 1 MiB + a byte to a zod route is 413, before anything is parsed', async () => {
    const res = await send('PATCH', '/api/rooms/ops', oversizeBody(MAX_REQUEST_BODY_BYTES));
    expect(res.status).toBe(413);
    expect(await code(res)).toBe('PAYLOAD_TOO_LARGE');
    const services = await send('POST', '/api/services', oversizeBody(16 * 1024));
    expect(services.status).toBe(413);
  });

  it('an oversize burn envelope is 413 like every relay route (it was 400)', async () => {
    const res = await f.app.request('/api/ledger/burns', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: oversizeBody(MAX_ENVELOPE_BYTES),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      ok: false,
      code: 'INVALID_REQUEST',
      details: { reason: 'payload_too_large' },
    });
  });
});
