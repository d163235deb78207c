// A counterparty service must never get bytes of its own served from the console's origin: the
// proxy (/api/external/:id/oap/*, /api/external/:id/events) answers re-serialised JSON under a
// sandbox CSP, or a coded 502, within its own timeout and byte cap (decisions-server.md §40).
import { afterEach, describe, expect, it } from 'vitest';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { testApp } from '../test-support/test-app';
import { RelayBridge } from '../external/relay-bridge';
import { ServiceFetcher } from '../external/service-fetcher';
import { manualClock } from '../test-support/manual-clock';
import { sessionCookie } from '../test-support/sessions';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { HUGE_BYTES, startHostileService, type HostileService } from './hostile-service';

let temp: TempStore | undefined;
let hostile: HostileService | undefined;
afterEach(async () => {
  await hostile?.close();
  await temp?.dispose();
  hostile = temp = undefined;
});

const TIMEOUT_MS = 1_500;

async function setup() {
  temp = tempStore();
  hostile = await startHostileService();
  const clock = manualClock(Date.parse('2026-05-03T10:00:00Z'));
  // Loopback is allowed here on purpose: this suite is about what comes back, not where it goes.
  const outbound = new ServiceFetcher({ allowPrivate: true, timeoutMs: TIMEOUT_MS, maxResponseBytes: 1024 * 1024 });
  const bridge = new RelayBridge({ store: temp.store, clock, outbound });
  const app = testApp({ staticDir: '/nonexistent', store: temp.store, clock, bridge });
  const cookie = await sessionCookie(
    temp.store,
    encodeDidKey(keyPairFromSeed(new Uint8Array(32).fill(1)).publicKey),
    'facilitator',
    clock.now(),
  );
  const headers = { cookie, origin: 'http://localhost' };
  const register = async (kind: 'relay' | 'negotiation') => {
    const res = await app.request('http://localhost/api/services', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Hostile ${kind}`, url: hostile!.url, kind }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { service: { id: string } }).service.id;
  };
  return { app, headers, register };
}

/** Every proxied answer: JSON under a sandbox CSP, never the service's type or headers. */
function expectContained(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('content-security-policy')).toMatch(/(^|;\s*)sandbox(;|$)/);
  expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('set-cookie')).toBeNull();
  expect(res.headers.get('x-upstream')).toBeNull();
  expect(res.headers.get('refresh')).toBeNull();
}

describe('the external-service proxy against a hostile negotiation service', () => {
  it('answers text/html with script as a coded 502, never as HTML', async () => {
    const { app, headers, register } = await setup();
    const id = await register('negotiation');
    const res = await app.request(`http://localhost/api/external/${id}/oap/negotiation/html`, { headers });
    expectContained(res);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_BAD_ANSWER', details: { reason: 'not_json' } });
  });

  it('re-serialises JSON labelled text/html as application/json, dropping the upstream headers', async () => {
    const { app, headers, register } = await setup();
    const id = await register('negotiation');
    const res = await app.request(`http://localhost/api/external/${id}/oap/negotiation/json-as-html`, { headers });
    expectContained(res);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ negotiation: { id: 'neg_1', note: '<script>alert(1)</script>' } });
  });

  it('cuts a 50 MB body at its byte cap with a coded 502', async () => {
    const { app, headers, register } = await setup();
    const id = await register('negotiation');
    const res = await app.request(`http://localhost/api/external/${id}/oap/negotiation/huge`, { headers });
    expectContained(res);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_BAD_ANSWER', details: { reason: 'too_large' } });
    expect(hostile!.hugeBytesWritten()).toBeLessThan(HUGE_BYTES);
  });

  it('gives up on a body that never ends at its timeout with a coded 502', async () => {
    const { app, headers, register } = await setup();
    const id = await register('negotiation');
    const res = await app.request(`http://localhost/api/external/${id}/oap/negotiation/slow`, { headers });
    expectContained(res);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_BAD_ANSWER', details: { reason: 'timeout' } });
  }, 10_000);

  it('does not follow a redirect, and refuses JSON nested past the depth bound', async () => {
    const { app, headers, register } = await setup();
    const id = await register('negotiation');
    const redirect = await app.request(`http://localhost/api/external/${id}/oap/negotiation/redirect`, { headers });
    expectContained(redirect);
    expect(redirect.status).toBe(502);
    expect(await redirect.json()).toMatchObject({ code: 'SERVICE_BAD_ANSWER', details: { reason: 'redirect' } });
    const deep = await app.request(`http://localhost/api/external/${id}/oap/negotiation/deep`, { headers });
    expectContained(deep);
    expect(deep.status).toBe(502);
    expect(await deep.json()).toMatchObject({ code: 'SERVICE_BAD_ANSWER', details: { reason: 'too_deep' } });
  });

  it('treats a relay answering POST /events with HTML the same way', async () => {
    const { app, headers, register } = await setup();
    const id = await register('relay');
    const res = await app.request(`http://localhost/api/external/${id}/events`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expectContained(res);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_BAD_ANSWER' });
  });
});
