// Several facilitators at once, through the real app over a real embedded broker and SQLite:
// display names (PATCH /api/me, the session read, enrollment), presence on a console page with
// its expiry, and the 409 of a lost review race naming who decided and when.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPIRES_MS, HEARTBEAT_MS, PLACES_PER_SESSION } from '../auth/operator-presence';
import { operatorName } from '../auth/operator-name';
import { createEnrollmentToken } from '../auth/enrollment';
import { fullApp, type FullApp } from '../test-support/full-app';
import { operatorKey } from '../test-support/operator-key';
import { sessionCookie } from '../test-support/sessions';

const ORIGIN = 'http://localhost';
const ANA = 'did:key:z6MkAnaFacilitatorAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1';
const BEN = 'did:key:z6MkBenFacilitatorBBBBBBBBBBBBBBBBBBBBBBBBBBBBB2';
const OLA = 'did:key:z6MkOlaObserverOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO3';

let f: FullApp;
let ana: string;
let ben: string;
let ola: string;

beforeEach(async () => {
  f = await fullApp();
  ana = await sessionCookie(f.harness.store, ANA, 'facilitator', f.clock.now());
  ben = await sessionCookie(f.harness.store, BEN, 'facilitator', f.clock.now());
  ola = await sessionCookie(f.harness.store, OLA, 'observer', f.clock.now());
});
afterEach(() => f.close());

function send(method: string, path: string, cookie: string | undefined, body?: unknown) {
  return f.app.request(path, {
    method,
    headers: {
      origin: ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe('display names', () => {
  it('sets a trimmed name, returns it from the session read, and names the operator to others', async () => {
    expect(await json(await send('GET', '/api/auth/session', ana))).toEqual({
      did: ANA,
      role: 'facilitator',
      name: null,
    });
    expect(await operatorName(f.harness.store, ANA)).toBe('Operator …AAAAA1');

    const res = await send('PATCH', '/api/me', ana, { name: '  Ana Lima  ' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ did: ANA, role: 'facilitator', name: 'Ana Lima' });
    expect(await json(await send('GET', '/api/auth/session', ana))).toEqual({
      did: ANA,
      role: 'facilitator',
      name: 'Ana Lima',
    });
    expect(await operatorName(f.harness.store, ANA)).toBe('Ana Lima');
    // Observers name themselves too.
    expect((await send('PATCH', '/api/me', ola, { name: 'Ola' })).status).toBe(200);
    const audit = await f.harness.store.access.listAudit({ limit: 10 });
    expect(audit.find((e) => e.action === 'operator.name' && e.actorDid === ANA)?.details).toEqual({
      from: null,
      to: 'Ana Lima',
    });
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['61 characters', 'x'.repeat(61)],
    ['NUL', 'Ana\u0000'],
    ['a newline inside', 'Ana\nBen'],
    ['a right-to-left override', '\u202eanA'],
    ['a first-strong isolate', 'Ana\u2068'],
    ['not a string', 42],
  ])('refuses %s with a coded 400 and keeps the old name', async (_, name) => {
    await send('PATCH', '/api/me', ana, { name: 'Ana' });
    const res = await send('PATCH', '/api/me', ana, { name });
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe('INVALID_REQUEST');
    expect((await f.harness.store.access.getOperator(ANA))?.name).toBe('Ana');
  });

  it('needs a session and the console origin', async () => {
    expect((await send('PATCH', '/api/me', undefined, { name: 'Eve' })).status).toBe(401);
    const crossSite = await f.app.request('/api/me', {
      method: 'PATCH',
      headers: { origin: 'http://evil.example', cookie: ana, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Eve' }),
    });
    expect(crossSite.status).toBe(403);
    expect((await json(crossSite)).code).toBe('CSRF_REJECTED');
    expect((await f.harness.store.access.getOperator(ANA))?.name).toBeNull();
  });

  it('takes an optional name at enrollment', async () => {
    const key = operatorKey();
    const token = await createEnrollmentToken(f.harness.store, 'observer', f.clock.now());
    const { challenge } = (await json(await f.app.request('/api/auth/challenge'))) as {
      challenge: { nonce: string };
    };
    const res = await send('POST', '/api/auth/enroll', undefined, {
      token,
      did: key.did,
      nonce: challenge.nonce,
      signature: key.sign(challenge),
      name: ' Dee ',
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ did: key.did, role: 'observer', name: 'Dee' });
  });

  it('is bounded per operator', async () => {
    const limited = await fullApp({ limits: { operatorWritesPerDid: { capacity: 2, refillPerSecond: 0.001 } } });
    try {
      const cookie = await sessionCookie(limited.harness.store, ANA, 'facilitator', limited.clock.now());
      const patch = () =>
        limited.app.request('/api/me', {
          method: 'PATCH',
          headers: { origin: ORIGIN, cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Ana' }),
        });
      expect((await patch()).status).toBe(200);
      expect((await patch()).status).toBe(200);
      const third = await patch();
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).not.toBeNull();
    } finally {
      await limited.close();
    }
  });
});

describe('presence', () => {
  const beat = (cookie: string, where: string) => send('POST', '/api/presence', cookie, { where });
  const who = async (where: string, cookie = ana) => {
    const res = await send('GET', `/api/presence?where=${encodeURIComponent(where)}`, cookie);
    expect(res.status).toBe(200);
    return ((await json(res)).operators as { did: string; name: string | null; role: string }[]).map(
      (o) => `${o.name ?? o.did}/${o.role}`,
    );
  };

  it('lists who is on a page, observers with their role, and forgets them after 40 s of silence', async () => {
    await send('PATCH', '/api/me', ana, { name: 'Ana' });
    await send('PATCH', '/api/me', ben, { name: 'Ben' });
    const first = await beat(ana, '/rooms/ops/review');
    expect(first.status).toBe(200);
    expect(await json(first)).toMatchObject({
      where: '/rooms/ops/review',
      heartbeatMs: HEARTBEAT_MS,
      expiresMs: EXPIRES_MS,
    });
    f.clock.advance(1000);
    await beat(ben, '/rooms/ops/review');
    await beat(ola, '/rooms/ops/review');
    await beat(ben, '/rooms/other');
    f.clock.advance(1000);
    // Most recently seen first, then by did.
    expect(await who('/rooms/ops/review')).toEqual(['Ben/facilitator', `${OLA}/observer`, 'Ana/facilitator']);
    expect(await who('/rooms/other')).toEqual(['Ben/facilitator']);

    // Ana goes quiet; Ben keeps beating every 15 s. At 32 s Ana is still here, at 47 s gone.
    for (let t = 0; t < 2; t += 1) {
      f.clock.advance(HEARTBEAT_MS);
      await beat(ben, '/rooms/ops/review');
    }
    expect(await who('/rooms/ops/review')).toContain('Ana/facilitator');
    f.clock.advance(HEARTBEAT_MS);
    await beat(ben, '/rooms/ops/review');
    expect(await who('/rooms/ops/review')).toEqual(['Ben/facilitator']);
    // Ana comes back: listed again at once.
    await beat(ana, '/rooms/ops/review');
    expect(await who('/rooms/ops/review')).toEqual(['Ana/facilitator', 'Ben/facilitator']);
  });

  it('shows one row per operator however many tabs, and bounds the pages of one session', async () => {
    const secondTab = ana;
    await beat(ana, '/rooms/ops');
    await beat(secondTab, '/rooms/ops');
    const otherSession = await sessionCookie(f.harness.store, ANA, 'facilitator', f.clock.now());
    await beat(otherSession, '/rooms/ops');
    expect(await who('/rooms/ops')).toHaveLength(1);
    for (let i = 0; i < PLACES_PER_SESSION; i += 1) {
      f.clock.advance(1);
      await beat(ana, `/rooms/r${i}`);
    }
    // The session's oldest page was forgotten for the newest; the other session still holds /rooms/ops.
    expect(await who('/rooms/r0')).toHaveLength(1);
    expect(await who(`/rooms/r${PLACES_PER_SESSION - 1}`)).toHaveLength(1);
    expect(await who('/rooms/ops')).toHaveLength(1);
    await beat(ana, '/rooms/one-more');
    expect(await who('/rooms/r0')).toEqual([]);
  });

  it('refuses what is not a console path, and anyone without a session', async () => {
    for (const where of ['rooms/ops', '/', '//x', '/a b', '/<b>', `/${'x'.repeat(200)}`]) {
      const res = await beat(ana, where);
      expect(res.status, where).toBe(400);
      expect((await json(res)).code).toBe('INVALID_REQUEST');
    }
    expect((await send('GET', '/api/presence?where=nope', ana)).status).toBe(400);
    expect((await beat('sb_session=forged', '/rooms/ops')).status).toBe(401);
    expect((await send('GET', '/api/presence?where=/rooms/ops', undefined)).status).toBe(401);
  });
});

describe('a lost review race', () => {
  const pending = async (roomId = 'ops') =>
    f.harness.store.rooms.addReviewItem({
      roomId,
      agentId: 'agent-a',
      taskId: 't1',
      messageId: `cand-${Math.random()}`,
      payload: new TextEncoder().encode('{}'),
      submittedAt: f.clock.now(),
    });

  beforeEach(async () => {
    await f.harness.rooms.create({ id: 'ops', name: 'Operations', moderation: 'review' });
    await f.harness.rooms.create({ id: 'other', name: 'Other', moderation: 'review' });
    await send('PATCH', '/api/me', ana, { name: 'Ana' });
  });

  it('answers the second facilitator 409 with who decided and when', async () => {
    const item = await pending();
    const decidedAt = f.clock.now();
    const won = await send('POST', `/api/rooms/ops/review/${item.id}/reject`, ana, { reason: 'off topic' });
    expect(won.status).toBe(200);
    expect(((await json(won)).item as { decidedByName: string }).decidedByName).toBe('Ana');
    const listed = (await json(await send('GET', '/api/rooms/ops/review', ben))).items as { decidedByName: unknown }[];
    expect(listed.map((i) => i.decidedByName)).toEqual(['Ana']);
    f.clock.advance(12_000);
    for (const lost of [
      await send('POST', `/api/rooms/ops/review/${item.id}/approve`, ben),
      await send('POST', `/api/rooms/ops/review/${item.id}/reject`, ben, { reason: 'me too' }),
    ]) {
      expect(lost.status).toBe(409);
      expect(await json(lost)).toEqual({
        code: 'CONFLICT',
        message: 'Ana already rejected this.',
        details: { decision: 'rejected', decidedBy: { did: ANA, name: 'Ana' }, decidedAt },
      });
    }
  });

  it('names the winner to the loser of two decisions sent at once', async () => {
    const item = await pending();
    const [a, b] = await Promise.all([
      send('POST', `/api/rooms/ops/review/${item.id}/reject`, ana, { reason: 'no' }),
      send('POST', `/api/rooms/ops/review/${item.id}/reject`, ben, { reason: 'no' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 409 ? BEN : ANA;
    const details = (await json(loser)).details as { decidedBy: { did: string; name: string } };
    expect(details.decidedBy.did).toBe(winner);
    expect(details.decidedBy.name).toBe(winner === ANA ? 'Ana' : 'did:key:z6Mk…BBBBB2');
  });

  it('keeps 404 for an item the room does not hold', async () => {
    const elsewhere = await pending('other');
    for (const path of [`/api/rooms/ops/review/${elsewhere.id}/approve`, '/api/rooms/ops/review/999999/approve']) {
      const res = await send('POST', path, ben);
      expect(res.status, path).toBe(404);
      expect((await json(res)).code).toBe('NOT_FOUND');
    }
    expect((await f.harness.store.rooms.getReviewItem('other', elsewhere.id))?.status).toBe('pending');
  });
});
