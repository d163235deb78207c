// requireSession and sessionFromCookieHeader against a real store: roles, expiry, cookies.
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomToken, tokenHash } from '../auth/tokens';
import type { OperatorRole } from '../store/store';
import { manualClock } from '../test-support/manual-clock';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { handleError } from './errors';
import { requireSession, SESSION_COOKIE, sessionFromCookieHeader, type SessionVariables } from './session';

let temp: TempStore;
const clock = manualClock();

beforeEach(() => {
  temp = tempStore();
});
afterEach(() => temp.dispose());

function guardedApp() {
  const deps = { store: temp.store, clock };
  const app = new Hono<{ Variables: SessionVariables }>()
    .get('/any', requireSession(deps), (c) => c.json(c.get('session')))
    .get('/observe', requireSession(deps, 'observer'), (c) => c.json({ role: c.get('session').role }))
    .get('/facilitate', requireSession(deps, 'facilitator'), (c) => c.json({ role: c.get('session').role }));
  app.onError(handleError);
  return app;
}

async function signedIn(role: OperatorRole, did = `did:key:z${role}`): Promise<string> {
  await temp.store.access.putOperator({ did, role, createdAt: clock.now() });
  const token = randomToken();
  await temp.store.access.createSession(tokenHash(token), { did, role, expiresAt: clock.now() + 60_000 });
  return `theme=dark; ${SESSION_COOKIE}=${token}; other=1`;
}

describe('requireSession', () => {
  it('lets a facilitator through both role levels', async () => {
    const app = guardedApp();
    const cookie = await signedIn('facilitator');
    for (const path of ['/observe', '/facilitate']) {
      const res = await app.request(path, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ role: 'facilitator' });
    }
  });

  it('lets an observer observe and refuses facilitating with 403 FORBIDDEN', async () => {
    const app = guardedApp();
    const cookie = await signedIn('observer');
    expect((await app.request('/observe', { headers: { cookie } })).status).toBe(200);
    const res = await app.request('/facilitate', { headers: { cookie } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('facilitator') });
  });

  it('puts the session on the context', async () => {
    const cookie = await signedIn('observer', 'did:key:zSomeone');
    const res = await guardedApp().request('/any', { headers: { cookie } });
    expect(await res.json()).toEqual({ did: 'did:key:zSomeone', role: 'observer', expiresAt: clock.now() + 60_000 });
  });

  it('answers 401 UNAUTHORIZED without a session, with a malformed one, and once it expired', async () => {
    const app = guardedApp();
    const cookie = await signedIn('facilitator');
    for (const headers of [{}, { cookie: 'theme=dark' }, { cookie: `${SESSION_COOKIE}=short` }] as Record<
      string,
      string
    >[]) {
      const res = await app.request('/observe', { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    clock.advance(60_000);
    expect((await app.request('/observe', { headers: { cookie } })).status).toBe(401);
  });
});

describe('sessionFromCookieHeader', () => {
  it('resolves a Cookie header to the session, as the /mqtt upgrade needs', async () => {
    const cookie = await signedIn('facilitator', 'did:key:zMqtt');
    expect(await sessionFromCookieHeader(temp.store, cookie, clock.now())).toMatchObject({
      did: 'did:key:zMqtt',
      role: 'facilitator',
    });
    expect(await sessionFromCookieHeader(temp.store, undefined, clock.now())).toBeUndefined();
    expect(await sessionFromCookieHeader(temp.store, null, clock.now())).toBeUndefined();
    expect(await sessionFromCookieHeader(temp.store, 'sb_session=' + 'A'.repeat(43), clock.now())).toBeUndefined();
    expect(await sessionFromCookieHeader(temp.store, cookie, clock.now() + 60_000)).toBeUndefined();
  });
});
