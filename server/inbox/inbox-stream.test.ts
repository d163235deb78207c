// The inbox stream's bounds over real sockets: streams per session and per operator (never per
// address, decisions-server.md §77), a client that stops reading is dropped instead of buffered
// for, heartbeats, a stream whose session ended closes, and a logout ends it at once.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxItem } from '@shared/contract/inbox';
import { tokenHash } from '../auth/tokens';
import { fullApp, type FullApp } from '../test-support/full-app';
import { openInboxStream, type InboxStreamReader } from '../test-support/inbox-stream';
import { sessionCookie } from '../test-support/sessions';

let f: FullApp;
let url: string;
const open: InboxStreamReader[] = [];

beforeAll(async () => {
  f = await fullApp({ inboxStreams: { perSession: 2, perOperator: 3, maxQueued: 4, heartbeatMs: 50 } });
  url = (await f.serve()).url;
});

afterAll(async () => {
  for (const s of open) s.close();
  await f.close();
});

async function stream(cookie: string) {
  const s = await openInboxStream(url, cookie);
  open.push(s);
  return s;
}

const refused = async (cookie: string) => {
  const res = await fetch(`${url}/api/inbox/stream`, { headers: { cookie } });
  return [res.status, ((await res.json()) as { code: string }).code];
};

let n = 0;
const item = (title: string): InboxItem => ({
  id: `service:test-${++n}`,
  kind: 'service',
  urgency: 'info',
  title,
  quote: null,
  since: n,
  dueAt: null,
  href: '/settings/services',
  ref: { kind: 'service', serviceId: `test-${n}` },
  claim: null,
});

describe('GET /api/inbox/stream', () => {
  it('starts with a snapshot, sends heartbeats, and carries the board’s changes in version order', async () => {
    const s = await stream(f.facilitator);
    expect(s.status).toBe(200);
    const first = await s.until(() => true);
    expect(first.type).toBe('snapshot');
    f.inbox.service.board.put(item('Acme is down'));
    f.inbox.service.board.remove(`service:test-${n}`);
    const removed = await s.until((e) => e.type === 'remove');
    const upserted = s.events.find((e) => e.type === 'upsert');
    expect(upserted && upserted.type === 'upsert' && upserted.item.title).toBe('Acme is down');
    expect(removed.type === 'remove' && upserted?.type === 'upsert' && removed.version).toBe(
      upserted?.type === 'upsert' ? upserted.version + 1 : -1,
    );
    const raw = await fetch(`${url}/api/inbox/stream`, { headers: { cookie: f.facilitator } });
    const reader = raw.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    s.close();
  });

  it('refuses a stream past the bound per session and per operator with a coded 429, and frees it on close', async () => {
    const a = await sessionCookie(f.harness.store, 'did:key:z6MkBoundsA', 'observer', f.clock.now());
    const a2 = await sessionCookie(f.harness.store, 'did:key:z6MkBoundsA', 'observer', f.clock.now());
    const a1 = await stream(a);
    await stream(a);
    expect(await refused(a)).toEqual([429, 'RATE_LIMITED']);
    // The same operator's second session: one more, then the operator's bound.
    await stream(a2);
    expect(await refused(a2)).toEqual([429, 'RATE_LIMITED']);
    // Every other operator on this address still gets their streams.
    for (const other of ['did:key:z6MkBoundsB', 'did:key:z6MkBoundsC', 'did:key:z6MkBoundsD']) {
      const cookie = await sessionCookie(f.harness.store, other, 'facilitator', f.clock.now());
      expect((await stream(cookie)).status).toBe(200);
      expect((await stream(cookie)).status).toBe(200);
    }
    a1.close();
    await a1.ended;
    for (;;) {
      const res = await fetch(`${url}/api/inbox/stream`, { headers: { cookie: a } });
      if (res.status === 200) {
        await res.body!.cancel();
        break;
      }
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const s of open.splice(0)) s.close();
  });

  it('drops a client that stops reading instead of buffering for it, and stays responsive', async () => {
    const cookie = await sessionCookie(f.harness.store, 'did:key:z6MkFrozen', 'observer', f.clock.now());
    const frozen: Socket = connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((resolve) => frozen.once('connect', resolve));
    frozen.write(`GET /api/inbox/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
    frozen.pause();
    // Far more than the socket buffers hold, in events far more than the queue's bound.
    const big = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 64; i++) f.inbox.service.board.put(item(big));
    expect((await fetch(`${url}/api/inbox`, { headers: { cookie } })).status).toBe(200);
    // Dropped: its session's two streams are free again.
    for (;;) {
      const tries = [await fetch(`${url}/api/inbox/stream`, { headers: { cookie } })];
      tries.push(await fetch(`${url}/api/inbox/stream`, { headers: { cookie } }));
      const ok = tries.every((r) => r.status === 200);
      for (const r of tries) await r.body?.cancel();
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    frozen.destroy();
    for (const i of f.inbox.service.board.current())
      if (i.id.startsWith('service:test-')) f.inbox.service.board.remove(i.id);
  });

  it('ends a stream once its session has ended', async () => {
    const cookie = await sessionCookie(f.harness.store, 'did:key:z6MkLeaving', 'observer', f.clock.now());
    const s = await stream(cookie);
    await s.until((e) => e.type === 'snapshot');
    await f.harness.store.access.deleteSession(tokenHash(cookie.split('=')[1]!));
    await s.ended;
    expect(s.events.map((e) => e.type)).toEqual(['snapshot']);
  });
});

describe('GET /api/inbox/stream and logout', () => {
  it('ends the stream at once on logout, long before its next heartbeat would check', async () => {
    // No heartbeat within the test's life: only the logout can end the stream.
    const g = await fullApp({ inboxStreams: { heartbeatMs: 3_600_000 } });
    try {
      const base = (await g.serve()).url;
      const cookie = await sessionCookie(g.harness.store, 'did:key:z6MkLoggingOut', 'observer', g.clock.now());
      const other = await openInboxStream(base, g.facilitator);
      const s = await openInboxStream(base, cookie);
      await s.until((e) => e.type === 'snapshot');
      await other.until((e) => e.type === 'snapshot');
      const out = await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { cookie, origin: base } });
      expect(out.status).toBe(204);
      await s.ended;
      // Another operator's stream goes on.
      g.inbox.service.board.put(item('Still here'));
      await other.until((e) => e.type === 'upsert');
      other.close();
    } finally {
      await g.close();
    }
  });
});
