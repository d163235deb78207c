// /api/auth through the real app (app.request), a real SQLite store in a temp dir, real Ed25519
// keys signing the challenge as the browser does, and an injected clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { createEnrollmentToken, ENROLLMENT_TTL_MS } from '../auth/enrollment';
import { tokenHash } from '../auth/tokens';
import { SESSION_TTL_MS } from '../http/session';
import { manualClock } from '../test-support/manual-clock';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { operatorKey, type Challenge, type OperatorKey } from '../test-support/operator-key';
import { CHALLENGE_TTL_MS } from './auth';

const ORIGIN = 'http://localhost'; // app.request() addresses http://localhost
const NO_LIMIT = { capacity: 10_000, refillPerSecond: 1_000 };

let temp: TempStore;
let clock: ReturnType<typeof manualClock>;
let app: ReturnType<typeof testApp>;

beforeEach(() => {
  temp = tempStore();
  clock = manualClock();
  app = testApp({ staticDir: '/nonexistent', store: temp.store, clock, limits: { authPerAddress: NO_LIMIT } });
});
afterEach(() => temp.dispose());

function post(path: string, body: unknown, headers: Record<string, string> = {}, base = ORIGIN) {
  return app.request(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function challenge(): Promise<Challenge> {
  const res = await app.request('/api/auth/challenge');
  expect(res.status).toBe(200);
  return ((await res.json()) as { challenge: Challenge }).challenge;
}

async function signedBody(key: OperatorKey, signer: OperatorKey = key, tamper: (c: Challenge) => unknown = (c) => c) {
  const c = await challenge();
  return { did: key.did, nonce: c.nonce, signature: signer.sign(tamper(c)) };
}

const cookieOf = (res: Response): string => {
  const header = res.headers.get('set-cookie') ?? '';
  const value = /sb_session=([^;]*)/.exec(header)?.[1];
  expect(value).toBeDefined();
  return `sb_session=${value}`;
};

async function enroll(key: OperatorKey, role: 'facilitator' | 'observer' = 'facilitator') {
  const token = await createEnrollmentToken(temp.store, role, clock.now());
  return post('/api/auth/enroll', { token, ...(await signedBody(key)) });
}

async function errorCode(res: Response) {
  return ((await res.json()) as { code: string }).code;
}

describe('GET /api/auth/challenge', () => {
  it('issues a stored, single-use login challenge that expires in 60 s', async () => {
    const res = await app.request('/api/auth/challenge');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { challenge: Challenge };
    expect(Object.keys(body)).toEqual(['challenge']);
    expect(body.challenge).toEqual({
      purpose: 'switchboard-login',
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: clock.now() + CHALLENGE_TTL_MS,
    });
    expect(Buffer.from(body.challenge.nonce, 'base64url')).toHaveLength(32);
    expect(await temp.store.access.consumeChallenge(body.challenge.nonce, clock.now())).toBe(body.challenge.expiresAt);
  });

  it('never hands out the same nonce twice', async () => {
    const nonces = new Set(await Promise.all(Array.from({ length: 20 }, async () => (await challenge()).nonce)));
    expect(nonces.size).toBe(20);
  });
});

describe('enroll, session, logout, login', () => {
  it('goes the whole way with a real key', async () => {
    const key = operatorKey();
    const enrolled = await enroll(key);
    expect(enrolled.status).toBe(200);
    expect(await enrolled.json()).toEqual({ did: key.did, role: 'facilitator', name: null });
    expect(await temp.store.access.getOperator(key.did)).toMatchObject({ role: 'facilitator' });
    const firstCookie = cookieOf(enrolled);

    const session = await app.request('/api/auth/session', { headers: { cookie: firstCookie } });
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({ did: key.did, role: 'facilitator', name: null });

    const logout = await post('/api/auth/logout', {}, { cookie: firstCookie });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/^sb_session=; Max-Age=0; Path=\//);
    const after = await app.request('/api/auth/session', { headers: { cookie: firstCookie } });
    expect(after.status).toBe(401);
    expect(await errorCode(after)).toBe('UNAUTHORIZED');

    const login = await post('/api/auth/login', await signedBody(key));
    expect(login.status).toBe(200);
    expect(await login.json()).toEqual({ did: key.did, role: 'facilitator', name: null });
    const secondCookie = cookieOf(login);
    expect(secondCookie).not.toBe(firstCookie);
    expect(await (await app.request('/api/auth/session', { headers: { cookie: secondCookie } })).json()).toEqual({
      did: key.did,
      role: 'facilitator',
      name: null,
    });
    expect(await temp.store.access.listAudit({ limit: 10 })).toMatchObject([
      {
        action: 'operator.enroll',
        actorDid: key.did,
        details: { role: 'facilitator', inviteId: expect.stringMatching(/^[0-9a-f]{16}$/) },
      },
    ]);
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, Path=/, for 12 hours, Secure only over https', async () => {
    const key = operatorKey();
    const res = await enroll(key);
    const header = res.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^sb_session=[A-Za-z0-9_-]{43};/);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/');
    expect(header).toContain(`Max-Age=${SESSION_TTL_MS / 1000}`);
    expect(header).not.toContain('Secure');

    const https = await post('/api/auth/login', await signedBody(key), {}, 'https://localhost');
    expect(https.status).toBe(200);
    expect(https.headers.get('set-cookie')).toContain('Secure');
    // Behind a TLS-terminating proxy.
    const proxied = await post('/api/auth/login', await signedBody(key), {
      'x-forwarded-proto': 'https',
      origin: 'https://localhost',
    });
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('set-cookie')).toContain('Secure');
  });

  it('stores only the hash of the session token', async () => {
    const key = operatorKey();
    const token = cookieOf(await enroll(key)).slice('sb_session='.length);
    expect(await temp.store.access.getSession(token, clock.now())).toBeUndefined();
    expect(await temp.store.access.getSession(tokenHash(token), clock.now())).toMatchObject({ did: key.did });
  });

  it('ends the session after 12 hours', async () => {
    const cookie = cookieOf(await enroll(operatorKey()));
    clock.advance(SESSION_TTL_MS - 1);
    expect((await app.request('/api/auth/session', { headers: { cookie } })).status).toBe(200);
    clock.advance(1);
    expect((await app.request('/api/auth/session', { headers: { cookie } })).status).toBe(401);
  });

  it('answers GET /session with 401 UNAUTHORIZED without a cookie or with a made-up one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { cookie: `sb_session=${'A'.repeat(43)}` },
      { cookie: 'sb_session=nonsense' },
    ];
    for (const headers of attempts) {
      const res = await app.request('/api/auth/session', { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    }
  });

  it('logout without a session is still 204', async () => {
    expect((await post('/api/auth/logout', {})).status).toBe(204);
  });

  it('reports the current role after the operator was changed (CLI) while signed in', async () => {
    const key = operatorKey();
    const cookie = cookieOf(await enroll(key));
    await temp.store.access.putOperator({ did: key.did, role: 'observer', createdAt: 0 });
    expect(await (await app.request('/api/auth/session', { headers: { cookie } })).json()).toEqual({
      did: key.did,
      role: 'observer',
      name: null,
    });
  });
});

describe('login refusals', () => {
  let key: OperatorKey;
  beforeEach(async () => {
    key = operatorKey();
    await temp.store.access.putOperator({ did: key.did, role: 'observer', createdAt: clock.now() });
  });

  it('logs in an operator added by the CLI', async () => {
    const res = await post('/api/auth/login', await signedBody(key));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ did: key.did, role: 'observer', name: null });
  });

  it('refuses a challenge used twice with CHALLENGE_INVALID', async () => {
    const body = await signedBody(key);
    expect((await post('/api/auth/login', body)).status).toBe(200);
    const again = await post('/api/auth/login', body);
    expect(again.status).toBe(401);
    expect(await errorCode(again)).toBe('CHALLENGE_INVALID');
  });

  it('refuses an expired challenge with CHALLENGE_INVALID', async () => {
    const body = await signedBody(key);
    clock.advance(CHALLENGE_TTL_MS);
    const res = await post('/api/auth/login', body);
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('CHALLENGE_INVALID');
  });

  it('refuses a nonce the server never issued with CHALLENGE_INVALID', async () => {
    const forged = { purpose: 'switchboard-login', nonce: 'A'.repeat(43), expiresAt: clock.now() + 60_000 };
    const res = await post('/api/auth/login', { did: key.did, nonce: forged.nonce, signature: key.sign(forged) });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('CHALLENGE_INVALID');
  });

  it('refuses a signature by another key with SIGNATURE_INVALID, and burns the challenge', async () => {
    const body = await signedBody(key, operatorKey());
    const res = await post('/api/auth/login', body);
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('SIGNATURE_INVALID');
    const retry = await post('/api/auth/login', {
      ...body,
      signature: key.sign({
        purpose: 'switchboard-login',
        nonce: body.nonce,
        expiresAt: clock.now() + CHALLENGE_TTL_MS,
      }),
    });
    expect(await errorCode(retry)).toBe('CHALLENGE_INVALID');
  });

  it.each([
    ['another purpose', (c: Challenge) => ({ ...c, purpose: 'switchboard-agreement' })],
    ['another expiry', (c: Challenge) => ({ ...c, expiresAt: c.expiresAt + 1 })],
    ['an extra field', (c: Challenge) => ({ ...c, extra: true })],
    ['the nonce alone', (c: Challenge) => c.nonce],
  ])('refuses a signature over %s with SIGNATURE_INVALID', async (_label, tamper) => {
    const res = await post('/api/auth/login', await signedBody(key, key, tamper));
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('SIGNATURE_INVALID');
  });

  it('refuses a signature of the wrong length with SIGNATURE_INVALID', async () => {
    const body = await signedBody(key);
    const res = await post('/api/auth/login', { ...body, signature: body.signature.slice(0, 40) });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('SIGNATURE_INVALID');
  });

  it('refuses a valid signature by a key that is not enrolled with 403 NOT_ENROLLED', async () => {
    const stranger = operatorKey();
    const res = await post('/api/auth/login', await signedBody(stranger));
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('NOT_ENROLLED');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['malformed JSON', '{"did":'],
    ['a missing signature', { did: 'x', nonce: 'y' }],
    ['a did that is not did:key', { did: 'did:web:example.com', nonce: 'abc', signature: 'abc' }],
    ['a signature that is not base64url', { did: 'did:key:z6Mk', nonce: 'abc', signature: 'a+b/c=' }],
    ['a JSON array', [1, 2]],
  ])('answers %s with 400 INVALID_REQUEST', async (_label, body) => {
    const res = await post('/api/auth/login', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_REQUEST', message: expect.any(String) });
  });

  it('answers a body over 16 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await post('/api/auth/login', {
      did: key.did,
      nonce: 'x',
      signature: 'y',
      padding: 'p'.repeat(17 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await errorCode(res)).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('enrollment refusals', () => {
  it('uses a token once: the second enrollment is 401 ENROLLMENT_INVALID', async () => {
    const token = await createEnrollmentToken(temp.store, 'observer', clock.now());
    const first = await post('/api/auth/enroll', { token, ...(await signedBody(operatorKey())) });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ role: 'observer' });
    const second = await post('/api/auth/enroll', { token, ...(await signedBody(operatorKey())) });
    expect(second.status).toBe(401);
    expect(await second.json()).toMatchObject({ code: 'ENROLLMENT_INVALID', details: { reason: 'used' } });
  });

  it('refuses a token after 24 hours, and an unknown token', async () => {
    const token = await createEnrollmentToken(temp.store, 'facilitator', clock.now());
    clock.advance(ENROLLMENT_TTL_MS);
    const late = await post('/api/auth/enroll', { token, ...(await signedBody(operatorKey())) });
    expect(late.status).toBe(401);
    expect(await late.json()).toMatchObject({ code: 'ENROLLMENT_INVALID', details: { reason: 'expired' } });
    const unknown = await post('/api/auth/enroll', { token: 'B'.repeat(43), ...(await signedBody(operatorKey())) });
    expect(await unknown.json()).toMatchObject({ code: 'ENROLLMENT_INVALID', details: { reason: 'unknown' } });
  });

  it('does not burn the token on a bad signature', async () => {
    const key = operatorKey();
    const token = await createEnrollmentToken(temp.store, 'facilitator', clock.now());
    const bad = await post('/api/auth/enroll', { token, ...(await signedBody(key, operatorKey())) });
    expect(await errorCode(bad)).toBe('SIGNATURE_INVALID');
    expect(await temp.store.access.getOperator(key.did)).toBeUndefined();
    const good = await post('/api/auth/enroll', { token, ...(await signedBody(key)) });
    expect(good.status).toBe(200);
  });

  it('enrolls nobody when the token is invalid', async () => {
    const key = operatorKey();
    await post('/api/auth/enroll', { token: 'C'.repeat(43), ...(await signedBody(key)) });
    expect(await temp.store.access.getOperator(key.did)).toBeUndefined();
    expect(await temp.store.access.listOperators()).toEqual([]);
  });
});

describe('CSRF on /api/', () => {
  it('refuses a cross-origin POST carrying the session cookie with 403 CSRF_REJECTED, and the session survives', async () => {
    const cookie = cookieOf(await enroll(operatorKey()));
    const res = await post('/api/auth/logout', {}, { cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('CSRF_REJECTED');
    expect((await app.request('/api/auth/session', { headers: { cookie } })).status).toBe(200);
  });

  it('refuses a POST with the session cookie and no Origin, and one from Origin "null"', async () => {
    const cookie = cookieOf(await enroll(operatorKey()));
    const noOrigin = await app.request('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(noOrigin.status).toBe(403);
    expect(await errorCode(noOrigin)).toBe('CSRF_REJECTED');
    expect((await post('/api/auth/logout', {}, { cookie, origin: 'null' })).status).toBe(403);
  });

  it('refuses a cross-origin login even without a cookie (login CSRF)', async () => {
    const key = operatorKey();
    await temp.store.access.putOperator({ did: key.did, role: 'observer', createdAt: 0 });
    const res = await post('/api/auth/login', await signedBody(key), { origin: 'http://localhost:5173' });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('CSRF_REJECTED');
  });

  it('lets a non-browser client without a cookie POST without Origin', async () => {
    const key = operatorKey();
    await temp.store.access.putOperator({ did: key.did, role: 'observer', createdAt: 0 });
    const res = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await signedBody(key)),
    });
    expect(res.status).toBe(200);
  });

  it('guards every state-changing method under /api/, served or not, and leaves GET alone', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await app.request('/api/rooms/r1', { method, headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
    }
    const get = await app.request('/api/auth/challenge', { headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
  });
});

describe('rate limit on /api/auth', () => {
  it('answers a failed sign-in over the address budget with 429 RATE_LIMITED and Retry-After, then recovers', async () => {
    const limited = testApp({
      staticDir: '/nonexistent',
      store: temp.store,
      clock,
      limits: { authPerAddress: { capacity: 3, refillPerSecond: 0.5 } },
    });
    const failedLogin = () =>
      limited.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    for (let i = 0; i < 3; i++) expect((await failedLogin()).status).toBe(400);
    const refused = await failedLogin();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await errorCode(refused)).toBe('RATE_LIMITED');
    // Challenges have a budget of their own, and GET /session is not limited (the console asks on every load).
    expect((await limited.request('/api/auth/challenge')).status).toBe(200);
    expect((await limited.request('/api/auth/session')).status).toBe(401);
    // The console's probe: nobody signed in is a 204 with no body, not an error.
    const probe = await limited.request('/api/auth/session?optional=1');
    expect(probe.status).toBe(204);
    expect(await probe.text()).toBe('');
    clock.advance(2000);
    expect((await failedLogin()).status).toBe(400);
  });
});
