// HTTP CSRF: every unsafe route that acts on the session cookie, found from app.routes
// (a same-origin request without a cookie answers 401 UNAUTHORIZED, or the route ends the
// cookie's session), refuses a cross-site Origin and a missing Origin with Sec-Fetch-Site:
// cross-site with a coded 403 that writes nothing; the same request from the console's own
// origin gets past the CSRF wall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { party } from '@shared/agora/test-support/fixtures';
import { fullApp, type FullApp } from '../test-support/full-app';
import { changedTables, openTableDigest } from './table-digest';

const ORIGIN = 'http://localhost';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes that act on the cookie without requiring it: ending a session. */
const COOKIE_USING = ['POST /api/auth/logout'];
const watched = party(2).did;

/** A concrete path for a route pattern, and a body that same-origin would send. */
const concrete = (path: string) =>
  path
    .replace(':id', 'ops')
    .replace(':item', '1')
    .replace(':did', watched)
    .replace(':serviceId', 'svc_unknown')
    .replace(':index', '0')
    .replace('*', 'negotiation/x');
const BODIES: Record<string, unknown> = {
  'POST /api/rooms': { id: 'csrf-room', name: 'CSRF room' },
  'PATCH /api/rooms/:id': { moderation: 'review' },
  'POST /api/services/watched': { did: watched },
  'POST /api/rooms/:id/review/:item/reject': { reason: 'no' },
  'PATCH /api/me': { name: 'Csrf' },
  'POST /api/presence': { where: '/rooms/ops' },
};

let f: FullApp;
let digest: ReturnType<typeof openTableDigest>;
let cookieRoutes: { key: string; method: string; path: string; body: string }[];

beforeAll(async () => {
  f = await fullApp();
  await f.harness.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  digest = openTableDigest(f.file);
  const unsafe = [
    ...new Map(f.app.routes.filter((r) => UNSAFE.has(r.method)).map((r) => [`${r.method} ${r.path}`, r])).values(),
  ];
  cookieRoutes = [];
  for (const r of unsafe) {
    const key = `${r.method} ${r.path}`;
    const route = { key, method: r.method, path: concrete(r.path), body: JSON.stringify(BODIES[key] ?? {}) };
    const anonymous = await f.app.request(route.path, {
      method: r.method,
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: route.body,
    });
    const code = ((await anonymous.json().catch(() => ({}))) as { code?: string }).code;
    if (code === 'UNAUTHORIZED' || COOKIE_USING.includes(key)) cookieRoutes.push(route);
  }
});

afterAll(async () => {
  digest.close();
  await f.close();
});

describe('CSRF on every cookie-authenticated unsafe route (enumerated from app.routes)', () => {
  it('finds them all: rooms, services, the external proxy, the guided demo, /seed, logout', () => {
    const keys = cookieRoutes.map((r) => r.key);
    for (const expected of [
      'POST /api/rooms',
      'PATCH /api/rooms/:id',
      'DELETE /api/services/:id',
      'POST /api/external/:serviceId/events',
      'POST /api/demo/negotiation',
      'POST /seed',
      'POST /api/auth/logout',
      'PATCH /api/me',
      'POST /api/presence',
    ]) {
      expect(keys).toContain(expected);
    }
    expect(keys.length).toBeGreaterThanOrEqual(15);
  });

  it('refuses a cross-site Origin with a coded 403 that changes nothing', async () => {
    for (const r of cookieRoutes) {
      for (const origin of ['https://evil.example', 'null', 'http://localhost:1', 'http://localhost.evil.example']) {
        const before = digest.digest();
        const res = await f.app.request(r.path, {
          method: r.method,
          headers: { origin, cookie: f.facilitator, 'content-type': 'application/json' },
          body: r.body,
        });
        expect(res.status, `${r.key} from ${origin}`).toBe(403);
        expect(((await res.json()) as { code: string }).code).toBe('CSRF_REJECTED');
        expect(changedTables(before, digest.digest()), r.key).toEqual([]);
      }
    }
  });

  it('refuses a missing Origin with Sec-Fetch-Site: cross-site (and a missing Origin with the cookie at all)', async () => {
    for (const r of cookieRoutes) {
      for (const headers of [
        { 'sec-fetch-site': 'cross-site' },
        {},
        { 'sec-fetch-site': 'cross-site', origin: ORIGIN },
      ] as Record<string, string>[]) {
        const before = digest.digest();
        const res = await f.app.request(r.path, {
          method: r.method,
          headers: { ...headers, cookie: f.facilitator, 'content-type': 'application/json' },
          body: r.body,
        });
        expect(res.status, `${r.key} ${JSON.stringify(headers)}`).toBe(403);
        expect(((await res.json()) as { code: string }).code).toBe('CSRF_REJECTED');
        expect(changedTables(before, digest.digest()), r.key).toEqual([]);
      }
    }
  });

  it("lets the same request through from the console's own origin", async () => {
    // Logout last: it ends the session the others use.
    for (const r of [...cookieRoutes].sort(
      (a, b) => Number(COOKIE_USING.includes(a.key)) - Number(COOKIE_USING.includes(b.key)),
    )) {
      const res = await f.app.request(r.path, {
        method: r.method,
        headers: {
          origin: ORIGIN,
          'sec-fetch-site': 'same-origin',
          cookie: f.facilitator,
          'content-type': 'application/json',
        },
        body: r.body,
      });
      const code = res.status === 204 ? undefined : ((await res.json()) as { code?: string }).code;
      expect(code, r.key).not.toBe('CSRF_REJECTED');
      expect(res.status, r.key).not.toBe(401);
    }
    // The ones with a complete body did what they say.
    expect((await f.harness.store.rooms.getRoom('csrf-room'))?.name).toBe('CSRF room');
  });
});
