// POST /events and GET /events against the real app and a real SQLite store.
import { afterEach, describe, expect, it } from 'vitest';
import { T0, agentA, agentB, client, signed, stranger } from '@shared/agora/test-support/fixtures';
import { canonicalize } from '@shared/crypto/jcs';
import { page, relayApp, type RelayApp } from '../test-support/relay-app';
import { sweepThreads } from './thread-sweeper';

let r: RelayApp;
afterEach(async () => {
  r.services.feed.close();
  await r.temp.dispose();
});

const body = async (res: Response) =>
  (await res.json()) as {
    ok: boolean;
    id?: string;
    code?: string;
    cursor?: string;
    duplicate?: boolean;
    thread?: { status: string };
    details?: { reason: string };
  };
const all = async () => page(await r.get('/events?since=cur_0&timeout=0'));

describe('POST /events', () => {
  it('stores a signed REQUEST once, opens its thread, and serves it back in JCS form with a cursor', async () => {
    r = relayApp();
    const request = signed('REQUEST', { from: client, to: agentA, thread: 'th_store' });
    const res = await r.post(request);
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({
      ok: true,
      id: request.id,
      cursor: 'cur_1',
      thread: { id: 'th_store', status: 'PENDING' },
    });
    const got = await r.get('/events?since=cur_0&timeout=0');
    expect(await got.text()).toBe(`{"ok":true,"events":[${canonicalize(request)}],"hasMore":false,"cursor":"cur_1"}`);
  });

  it('is idempotent: the same signed envelope again is ok with the same id and no second copy', async () => {
    r = relayApp();
    const request = signed('REQUEST', { from: client, thread: 'th_idem' });
    await r.post(request);
    // Other whitespace and key order, same JCS form: the same envelope.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(request).reverse()), null, 2);
    const again = await r.post(reordered);
    expect(again.status).toBe(200);
    expect(await body(again)).toMatchObject({ ok: true, id: request.id, duplicate: true });
    expect((await all()).events).toHaveLength(1);
  });

  it('refuses each bad envelope with its coded reason and status, and stores nothing', async () => {
    r = relayApp();
    const request = signed('REQUEST', { from: client, thread: 'th_bad' });
    await r.post(request);
    const cases: [unknown, number, string, string][] = [
      ['{not json', 400, 'INVALID_REQUEST', 'not_json'],
      ['{"id":"a","id":"b"}', 400, 'INVALID_REQUEST', 'not_json'],
      [
        { ...signed('REQUEST', { from: client, thread: 'th_x' }), version: '1.0.0' },
        400,
        'INVALID_REQUEST',
        'version_mismatch',
      ],
      [
        { ...signed('REQUEST', { from: client, thread: 'th_x' }), thread: undefined },
        400,
        'INVALID_REQUEST',
        'schema_invalid',
      ],
      [
        { ...signed('REQUEST', { from: client, thread: 'th_x' }), sender: { id: agentA.did } },
        403,
        'FORBIDDEN',
        'signature_invalid',
      ],
      [signed('REQUEST', { from: client, thread: 'th_x', ts: T0 - 5 * 60_000 }), 400, 'TIMEOUT', 'timestamp_too_old'],
      [
        signed('REQUEST', { from: client, thread: 'th_x', ts: T0 + 5 * 60_000 }),
        400,
        'INVALID_REQUEST',
        'timestamp_in_future',
      ],
      [
        signed('REQUEST', { from: client, thread: 'th_x', ts: T0 - 2000, meta: { ttl: 1 } }),
        400,
        'TIMEOUT',
        'ttl_expired',
      ],
      [signed('REQUEST', { from: client, thread: 'th_x', id: request.id }), 409, 'FORBIDDEN', 'id_conflict'],
      [
        signed('REQUEST', { from: client, thread: 'th_x', payload: { params: { text: 'x'.repeat(70_000) } } }),
        413,
        'INVALID_REQUEST',
        'payload_too_large',
      ],
      [signed('OFFER', { from: agentA, thread: 'th_none' }), 409, 'INVALID_REQUEST', 'thread_not_started'],
    ];
    for (const [envelope, status, code, reason] of cases) {
      const res = await r.post(envelope);
      expect({ reason, status: res.status }).toEqual({ reason, status });
      expect(await body(res)).toMatchObject({ ok: false, code, details: { reason } });
    }
    expect((await all()).events.map((e) => e.id)).toEqual([request.id]);
    expect(await r.services.relay.store.getThread('th_x')).toBeUndefined();
    expect(await r.services.relay.store.headSeq()).toBe(1);
  });

  it('runs the thread machine atomically in the store: REQUEST → OFFERs → one ACCEPT → RESULT', async () => {
    r = relayApp();
    const thread = 'th_flow';
    const status = async (res: Response) => (await body(res)).thread?.status ?? 'refused';
    expect(await status(await r.post(signed('REQUEST', { from: client, thread })))).toBe('PENDING');
    const offerA = signed('OFFER', { from: agentA, to: client, thread });
    expect(await status(await r.post(offerA))).toBe('PENDING');
    expect(await status(await r.post(signed('OFFER', { from: agentB, to: client, thread })))).toBe('PENDING');
    const notClient = await r.post(signed('ACCEPT', { from: stranger, thread, payload: { offer_id: offerA.id } }));
    expect([notClient.status, (await body(notClient)).details?.reason]).toEqual([403, 'not_the_client']);
    expect(
      await status(
        await r.post(signed('ACCEPT', { from: client, to: agentA, thread, payload: { offer_id: offerA.id } })),
      ),
    ).toBe('ACTIVE');
    const second = await r.post(
      signed('ACCEPT', { from: client, to: agentA, thread, payload: { offer_id: offerA.id } }),
    );
    expect([second.status, (await body(second)).details?.reason]).toEqual([409, 'duplicate_accept']);
    const lateOffer = await r.post(signed('OFFER', { from: agentB, to: client, thread }));
    expect((await body(lateOffer)).details?.reason).toBe('thread_not_pending');
    const wrongAgent = await r.post(signed('RESULT', { from: agentB, to: client, thread }));
    expect([wrongAgent.status, (await body(wrongAgent)).details?.reason]).toEqual([403, 'not_the_accepted_agent']);
    expect(await status(await r.post(signed('RESULT', { from: agentA, to: client, thread })))).toBe('COMPLETED');
    const closed = await r.post(signed('ERROR', { from: client, thread }));
    expect((await body(closed)).details?.reason).toBe('thread_closed');
    const stored = await r.services.relay.store.getThread(thread);
    expect(stored?.state.status).toBe('COMPLETED');
    expect((await r.services.relay.store.threadEvents(thread, 100)).map((e) => e.type)).toEqual([
      'REQUEST',
      'OFFER',
      'OFFER',
      'ACCEPT',
      'RESULT',
    ]);
  });

  it('times threads out: the sweeper moves a PENDING thread with no OFFER to ERROR, which then takes nothing', async () => {
    r = relayApp({ timeouts: { noOfferMs: 60_000, noAcceptMs: 120_000, noResultMs: 60_000 } });
    await r.post(signed('REQUEST', { from: client, thread: 'th_slow' }));
    r.clock.advance(60_000);
    expect(await sweepThreads(r.services.relay.store, r.clock, r.services.relay.timeouts)).toBe(0);
    r.clock.advance(1);
    expect(await sweepThreads(r.services.relay.store, r.clock, r.services.relay.timeouts)).toBe(1);
    const thread = await r.services.relay.store.getThread('th_slow');
    expect(thread?.state).toMatchObject({ status: 'ERROR', ended: { type: 'timeout', phase: 'no_offer' } });
    expect(thread?.deadlineAt).toBeNull();
    const late = await r.post(signed('OFFER', { from: agentA, thread: 'th_slow', ts: r.clock.now() }));
    expect((await body(late)).details?.reason).toBe('thread_closed');
  });

  it('applies an overdue timeout at the next message even before the sweeper ran', async () => {
    r = relayApp({ timeouts: { noOfferMs: 1000, noAcceptMs: 1000, noResultMs: 1000 } });
    await r.post(signed('REQUEST', { from: client, thread: 'th_tick' }));
    r.clock.advance(1001);
    const res = await r.post(signed('OFFER', { from: agentA, thread: 'th_tick', ts: r.clock.now() }));
    expect((await body(res)).details?.reason).toBe('thread_closed');
    // Refused, so nothing stored: the timeout itself is the sweeper's to write.
    expect((await r.services.relay.store.getThread('th_tick'))?.state.status).toBe('PENDING');
  });

  it('keeps replay protection and idempotency across a restart (the store is the memory)', async () => {
    r = relayApp();
    const request = signed('REQUEST', { from: client, thread: 'th_restart' });
    await r.post(request);
    r.services.feed.close();
    const { SqliteStore } = await import('../store/sqlite/sqlite-store');
    const file = `${r.temp.dir}/switchboard.sqlite`;
    await r.temp.store.close();
    const reopened = new SqliteStore({ file });
    // Disposing closes the reopened store too, not only the first one.
    const first = r.temp;
    r = relayApp({
      temp: {
        store: reopened,
        dir: first.dir,
        dispose: async () => {
          await reopened.close();
          await first.dispose();
        },
      },
      clock: r.clock,
    });
    const again = await r.post(request);
    expect(await body(again)).toMatchObject({ ok: true, duplicate: true });
    const reused = await r.post(signed('REQUEST', { from: client, thread: 'th_other', id: request.id }));
    expect((await body(reused)).details?.reason).toBe('id_conflict');
    expect((await all()).events).toHaveLength(1);
    await reopened.close();
  });
});

describe('GET /events', () => {
  it('filters by recipient, sender, type and thread, pages with limit and hasMore, and resumes by cursor', async () => {
    r = relayApp();
    const one = signed('REQUEST', { from: client, to: agentA, thread: 'th_f1' });
    const two = signed('REQUEST', { from: client, to: agentB, thread: 'th_f2' });
    const three = signed('OFFER', { from: agentA, to: client, thread: 'th_f1' });
    for (const e of [one, two, three]) await r.post(e);
    const ids = async (query: string) =>
      (await page(await r.get(`/events?since=cur_0&timeout=0&${query}`))).events.map((e) => e.id);
    expect(await ids(`recipient=${encodeURIComponent(agentA.did)}`)).toEqual([one.id]);
    expect(await ids(`sender=${encodeURIComponent(agentA.did)}`)).toEqual([three.id]);
    expect(await ids('type=OFFER')).toEqual([three.id]);
    expect(await ids('thread=th_f1')).toEqual([one.id, three.id]);
    const first = await page(await r.get('/events?since=cur_0&timeout=0&limit=2'));
    expect([first.events.map((e) => e.id), first.hasMore, first.cursor]).toEqual([[one.id, two.id], true, 'cur_2']);
    const rest = await page(await r.get(`/events?since=${first.cursor}&timeout=0&limit=2`));
    expect([rest.events.map((e) => e.id), rest.hasMore, rest.cursor]).toEqual([[three.id], false, 'cur_3']);
    // A filter that matched nothing still moves the cursor to the head it read.
    expect(await page(await r.get('/events?since=cur_0&timeout=0&type=RESULT'))).toEqual({
      ok: true,
      events: [],
      hasMore: false,
      cursor: 'cur_3',
    });
  });

  it('a cursor never misses an event that a since=<last ts> resume loses (decisions-agora.md §3)', async () => {
    r = relayApp();
    const first = signed('REQUEST', { from: client, thread: 'th_c1', ts: T0 });
    await r.post(first);
    const seen = await page(
      await r.get(`/events?since=${encodeURIComponent(new Date(T0 - 1000).toISOString())}&timeout=0`),
    );
    expect(seen.events.map((e) => e.id)).toEqual([first.id]);
    // Arrives later, with a ts a minute older than the last one the client saw (within ±5 min).
    const backdated = signed('REQUEST', { from: client, thread: 'th_c2', ts: T0 - 60_000 });
    await r.post(backdated);
    const byTs = await page(await r.get(`/events?since=${encodeURIComponent(seen.events[0]!.ts)}&timeout=0`));
    expect(byTs.events.map((e) => e.id)).not.toContain(backdated.id);
    const byCursor = await page(await r.get(`/events?since=${seen.cursor}&timeout=0`));
    expect(byCursor.events.map((e) => e.id)).toEqual([backdated.id]);
  });

  it('reads a timestamp since as "after this time" (Agora §7.2): resuming with the last event\'s ts repeats nothing and waits', async () => {
    r = relayApp();
    const first = signed('REQUEST', { from: client, thread: 'th_after1', ts: T0 });
    await r.post(first);
    // The spec's own loop: start from a time, then resume with the last event's ts.
    const seen = await page(
      await r.get(`/events?since=${encodeURIComponent(new Date(T0 - 1000).toISOString())}&timeout=0`),
    );
    expect(seen.events.map((e) => e.id)).toEqual([first.id]);
    const resumed = r.get(`/events?since=${encodeURIComponent(seen.events.at(-1)!.ts)}&timeout=30`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(r.services.feed.waiting).toBe(1);
    r.clock.advance(1);
    const next = signed('REQUEST', { from: client, thread: 'th_after2', ts: T0 + 1 });
    await r.post(next);
    expect((await page(await resumed)).events.map((e) => e.id)).toEqual([next.id]);
  });

  it('holds the poll until a matching event arrives, answering with it at once', async () => {
    r = relayApp();
    const pending = r.get(`/events?since=cur_0&timeout=30&recipient=${encodeURIComponent(agentA.did)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(r.services.feed.waiting).toBe(1);
    await r.post(signed('REQUEST', { from: client, to: agentB, thread: 'th_w1' })); // not for A: keeps waiting
    expect(r.services.feed.waiting).toBe(1);
    const forA = signed('REQUEST', { from: client, to: agentA, thread: 'th_w2' });
    await r.post(forA);
    const answer = await page(await pending);
    expect([answer.events.map((e) => e.id), answer.cursor]).toEqual([[forA.id], 'cur_2']);
    expect(r.services.feed.waiting).toBe(0);
  });

  it('clamps a cursor beyond the store head to that head, and it moves nothing: the next event still wakes a waiter', async () => {
    r = relayApp();
    await r.post(signed('REQUEST', { from: client, thread: 'th_future1' }));
    expect(await page(await r.get('/events?since=cur_999999999&timeout=0'))).toEqual({
      ok: true,
      events: [],
      hasMore: false,
      cursor: 'cur_1',
    });
    const waiting = r.get('/events?since=cur_1&timeout=30');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = signed('REQUEST', { from: client, thread: 'th_future2' });
    await r.post(next);
    const answer = await page(await waiting);
    expect([answer.events.map((e) => e.id), answer.cursor]).toEqual([[next.id], 'cur_2']);
    expect(r.services.feed.lastSeq).toBe(2);
  });

  it('answers an empty page with the head cursor when the timeout passes', async () => {
    r = relayApp();
    await r.post(signed('REQUEST', { from: client, thread: 'th_t' }));
    const answer = await page(await r.get('/events?since=cur_1&timeout=1'));
    expect(answer).toEqual({ ok: true, events: [], hasMore: false, cursor: 'cur_1' });
  });

  it('stops delivering an envelope after its meta.ttl, while the thread record keeps it', async () => {
    r = relayApp();
    await r.post(signed('REQUEST', { from: client, thread: 'th_ttl', meta: { ttl: 60 } }));
    expect((await all()).events).toHaveLength(1);
    r.clock.advance(60_001);
    expect((await all()).events).toHaveLength(0);
    expect(await r.services.relay.store.threadEvents('th_ttl', 10)).toHaveLength(1);
  });

  it('refuses a missing or malformed since, a repeated parameter, an unknown type, with INVALID_REQUEST', async () => {
    r = relayApp();
    for (const query of [
      '',
      'since=yesterday',
      'since=cur_-1',
      'since=cur_1&since=cur_2',
      'since=cur_0&type=task_request',
      'since=cur_0&timeout=-1',
      'since=cur_0&limit=501',
    ]) {
      const res = await r.get(`/events?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(await res.json()).toMatchObject({
        ok: false,
        code: 'INVALID_REQUEST',
        details: { reason: 'schema_invalid' },
      });
    }
  });
});
