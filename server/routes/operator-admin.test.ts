// The Operators screen's API and the activity log, through the real app over a real embedded
// broker and SQLite (decisions-server.md §83, §84, §86): invitations made once and audited,
// enrollment through one, role changes and removal that never leave the console without a
// facilitator, the activity log filtered and paged by keyset, and every waiting candidate settled.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fullApp, type FullApp } from '../test-support/full-app';
import { operatorKey } from '../test-support/operator-key';
import { sessionCookie } from '../test-support/sessions';

const ORIGIN = 'http://localhost';
const ANA = 'did:key:z6MkAnaFacilitatorAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1';
const BEN = 'did:key:z6MkBenFacilitatorBBBBBBBBBBBBBBBBBBBBBBBBBBBBB2';
const OLA = 'did:key:z6MkOlaObserverOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO3';

let f: FullApp;
let ana: string;
let ola: string;

beforeEach(async () => {
  f = await fullApp();
  ana = await sessionCookie(f.harness.store, ANA, 'facilitator', f.clock.now());
  ola = await sessionCookie(f.harness.store, OLA, 'observer', f.clock.now());
  await send('PATCH', '/api/me', ana, { name: 'Ana' });
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

async function enrollWith(token: string, name: string) {
  const key = operatorKey();
  const challenge = (await json(await f.app.request('/api/auth/challenge'))).challenge as { nonce: string };
  const res = await send('POST', '/api/auth/enroll', undefined, {
    token,
    name,
    did: key.did,
    nonce: challenge.nonce,
    signature: key.sign(challenge),
  });
  return { res, did: key.did };
}

describe('invitations', () => {
  it('makes a link once, lists it without its token, and an enrollment through it uses it', async () => {
    const made = await send('POST', '/api/operators/invites', ana, { role: 'facilitator', expiresInHours: 2 });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const invite = (await json(made)) as { id: string; token: string; expiresAt: number; role: string };
    expect(invite).toMatchObject({ role: 'facilitator', expiresAt: f.clock.now() + 2 * 3_600_000 });
    const listed = await json(await send('GET', '/api/operators', ana));
    expect(listed.invites).toEqual([
      {
        id: invite.id,
        role: 'facilitator',
        expiresAt: invite.expiresAt,
        createdAt: f.clock.now(),
        createdBy: ANA,
        createdByName: 'Ana',
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(invite.token);

    const { res, did } = await enrollWith(invite.token, 'Ben');
    expect(res.status).toBe(200);
    const after = await json(await send('GET', '/api/operators', ana));
    expect(after.invites).toEqual([]);
    expect((after.operators as { did: string; name: string | null }[]).map((o) => o.name)).toContain('Ben');
    // The second use says it was used.
    const again = await enrollWith(invite.token, 'Cy');
    expect(await json(again.res)).toMatchObject({ code: 'ENROLLMENT_INVALID', details: { reason: 'used' } });

    // Both are in the activity log, each naming the other's id, the token nowhere.
    const log = await json(await send('GET', '/api/activity?kind=operator', ola));
    const entries = log.entries as {
      action: string;
      actorName: string | null;
      target: string | null;
      details: Record<string, unknown>;
    }[];
    expect(entries.map((e) => [e.action, e.actorName, e.target])).toEqual([
      ['operator.enroll', 'Ben', did],
      ['operator.invite', 'Ana', null],
      ['operator.name', 'Ana', ANA],
    ]);
    expect(entries[0]!.details.inviteId).toBe(invite.id);
    expect(entries[1]!.details.inviteId).toBe(invite.id);
    expect(JSON.stringify(log)).not.toContain(invite.token);
  });

  it('withdraws an unused link; refuses observers, bad roles and hours out of range, changing nothing', async () => {
    const invite = (await json(await send('POST', '/api/operators/invites', ana, { role: 'observer' }))) as {
      id: string;
      token: string;
    };
    expect((await send('DELETE', `/api/operators/invites/${invite.id}`, ana)).status).toBe(200);
    expect(await json(await send('DELETE', `/api/operators/invites/${invite.id}`, ana))).toMatchObject({
      code: 'INVITE_NOT_FOUND',
    });
    expect(await json((await enrollWith(invite.token, 'Late')).res)).toMatchObject({ details: { reason: 'unknown' } });
    expect((await send('GET', '/api/operators', ola)).status).toBe(403);
    expect((await send('POST', '/api/operators/invites', ola, { role: 'observer' })).status).toBe(403);
    for (const body of [
      { role: 'admin' },
      { role: 'observer', expiresInHours: 0 },
      { role: 'observer', expiresInHours: 169 },
      { role: 'observer', extra: 1 },
    ]) {
      const res = await send('POST', '/api/operators/invites', ana, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await json(await send('GET', '/api/operators', ana))).invites).toEqual([]);
  });
});

describe('roles and removal', () => {
  it('changes a role and removes an operator, each audited; never the last facilitator', async () => {
    await sessionCookie(f.harness.store, BEN, 'observer', f.clock.now());
    // Ana as the only facilitator (the app's fixture enrolls one of its own).
    for (const o of await f.harness.store.access.listOperators())
      if (o.role === 'facilitator' && o.did !== ANA) await f.harness.store.access.removeOperator(o.did);
    const alone = await send('PATCH', `/api/operators/${encodeURIComponent(ANA)}`, ana, { role: 'observer' });
    expect(alone.status).toBe(409);
    expect((await json(alone)).code).toBe('LAST_FACILITATOR');
    expect((await send('DELETE', `/api/operators/${encodeURIComponent(ANA)}`, ana)).status).toBe(409);

    const promoted = await send('PATCH', `/api/operators/${encodeURIComponent(BEN)}`, ana, { role: 'facilitator' });
    expect(promoted.status).toBe(200);
    expect(((await json(promoted)).operator as { role: string }).role).toBe('facilitator');
    const removed = await send('DELETE', `/api/operators/${encodeURIComponent(OLA)}`, ana);
    expect(removed.status).toBe(200);
    // Her session ended with her.
    expect((await send('GET', '/api/auth/session', ola)).status).toBe(401);
    expect((await send('DELETE', `/api/operators/${encodeURIComponent(OLA)}`, ana)).status).toBe(404);

    const log = (await json(await send('GET', '/api/activity?kind=operator&actor=' + encodeURIComponent(ANA), ana)))
      .entries as { action: string; target: string; details: Record<string, unknown> }[];
    expect(log.slice(0, 2).map((e) => [e.action, e.target, e.details])).toEqual([
      ['operator.remove', OLA, { did: OLA, role: 'observer', name: null }],
      ['operator.role', BEN, { did: BEN, from: 'observer', to: 'facilitator', name: null }],
    ]);
  });
});

describe('the activity log', () => {
  it('pages by keyset with a next cursor, filters by target, and refuses bad queries', async () => {
    for (let i = 0; i < 5; i++)
      await f.harness.store.access.appendAudit({
        at: f.clock.now() + i,
        actorDid: ANA,
        action: 'agent.suspend',
        roomId: null,
        messageId: null,
        details: { agentId: i % 2 ? 'bot-odd' : 'bot-even', reason: `r${i}` },
      });
    const first = await json(await send('GET', '/api/activity?target=bot-even&limit=2', ola));
    expect((first.entries as { details: { reason: string } }[]).map((e) => e.details.reason)).toEqual(['r4', 'r2']);
    const second = await json(
      await send('GET', `/api/activity?target=bot-even&limit=2&before=${String(first.next)}`, ola),
    );
    expect((second.entries as { details: { reason: string } }[]).map((e) => e.details.reason)).toEqual(['r0']);
    expect(second.next).toBeNull();
    for (const q of ['limit=0', 'limit=201', 'kind=people', 'before=-1', 'colour=red'])
      expect((await send('GET', `/api/activity?${q}`, ola)).status, q).toBe(400);
    expect((await send('GET', '/api/activity', undefined)).status).toBe(401);
  });
});

describe('settling a review queue', () => {
  const pending = (n: number) =>
    f.harness.store.rooms.addReviewItem({
      roomId: 'ops',
      agentId: 'agent-a',
      taskId: 't1',
      messageId: `cand-${n}`,
      payload: new TextEncoder().encode('{}'),
      submittedAt: f.clock.now(),
    });

  it('rejects or releases every waiting candidate at once, audited once; observers may not', async () => {
    await f.harness.rooms.create({ id: 'ops', name: 'Operations', moderation: 'review' });
    for (const n of [1, 2, 3]) await pending(n);
    expect((await send('POST', '/api/rooms/ops/review/settle', ola, { decision: 'release' })).status).toBe(403);
    expect((await send('POST', '/api/rooms/ops/review/settle', ana, { decision: 'reject' })).status).toBe(400);
    const released = await send('POST', '/api/rooms/ops/review/settle', ana, { decision: 'release' });
    expect(await json(released)).toEqual({ decision: 'release', decided: 3, refused: 0, skipped: 0, remaining: 0 });
    const items = await f.harness.store.rooms.listReviewItems('ops');
    expect(items.map((i) => [i.status, i.decidedBy, i.reason])).toEqual(
      Array.from({ length: 3 }, () => ['expired', ANA, 'review mode ended']),
    );
    await pending(4);
    const rejected = await json(
      await send('POST', '/api/rooms/ops/review/settle', ana, { decision: 'reject', reason: 'stale' }),
    );
    expect(rejected).toMatchObject({ decided: 1, remaining: 0 });
    const log = (await json(await send('GET', '/api/activity?room=ops&kind=review', ana))).entries as {
      details: Record<string, unknown>;
    }[];
    expect(log.map((e) => e.details.decision)).toEqual(['reject', 'release']);
  });

  it('approves every waiting candidate; one without a live grant ends rejected and is counted as refused', async () => {
    await f.harness.rooms.create({ id: 'ops', name: 'Operations', moderation: 'review' });
    await pending(1);
    const approved = await json(await send('POST', '/api/rooms/ops/review/settle', ana, { decision: 'approve' }));
    expect(approved).toEqual({ decision: 'approve', decided: 0, refused: 1, skipped: 0, remaining: 0 });
  });
});
