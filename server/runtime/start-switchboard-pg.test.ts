// Two whole Switchboard processes' worth of runtime on one PostgreSQL database
// (store side): what one instance stores, the other serves; a browser session made on one
// is valid on the other; and a long-poll waiting on one instance wakes for an Agora event POSTed
// to the other (LISTEN/NOTIFY). Each instance has its own embedded broker: the shared broker is
// server/cluster/two-instances.test.ts's concern.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T0, agentA, client, signed } from '@shared/agora/test-support/fixtures';
import { loadConfig } from '../config';
import { createRelayServices, watchStoreHead } from '../relay/relay-services';
import { startSwitchboard, type RunningSwitchboard } from './start-switchboard';
import { openPgStore } from '../store/pg/pg-store';
import { manualClock } from '../test-support/manual-clock';
import { usePgDatabase } from '../test-support/pg-database';
import { sessionCookie } from '../test-support/sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const pg = usePgDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-runtime-pg-'));
let one: RunningSwitchboard;
let two: RunningSwitchboard;
let cookie: string;

beforeAll(async () => {
  const env = { PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', DATABASE_URL: await pg.url() };
  // The Agora fixtures are signed at T0: both instances' protocol clocks stand there.
  [one, two] = await Promise.all([
    startSwitchboard(loadConfig(env), { clock: manualClock(T0) }),
    startSwitchboard(loadConfig(env), { clock: manualClock(T0) }),
  ]);
  cookie = await sessionCookie(one.store, FACILITATOR, 'facilitator');
});

afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (sb: RunningSwitchboard, path: string, init: RequestInit = {}) =>
  fetch(sb.url + path, {
    ...init,
    headers: { cookie, origin: sb.url, 'content-type': 'application/json', ...init.headers },
  });

describe('two instances on one PostgreSQL database', () => {
  it('a room created through one instance is listed by the other, with a session made on the first', async () => {
    const created = await api(one, '/api/rooms', {
      method: 'POST',
      body: JSON.stringify({ id: 'pg-ops', name: 'On PostgreSQL', moderation: 'review' }),
    });
    expect(created.status).toBe(201);
    const again = await api(two, '/api/rooms', {
      method: 'POST',
      body: JSON.stringify({ id: 'pg-ops', name: 'Again' }),
    });
    expect(again.status).toBe(409);
    const listed = (await (await api(two, '/api/rooms')).json()) as {
      rooms: { id: string; name: string; moderation: string }[];
    };
    expect(listed.rooms.find((r) => r.id === 'pg-ops')).toMatchObject({ name: 'On PostgreSQL', moderation: 'review' });
  });

  it('a long-poll waiting on one instance returns the event POSTed to the other', async () => {
    const head = await one.store.relay.headSeq();
    // Long-poll on instance two for events addressed to agent A, after the current head.
    const poll = fetch(`${two.url}/events?since=cur_${head}&recipient=${encodeURIComponent(agentA.did)}&timeout=30`);
    while (two.relay.feed.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const request = signed('REQUEST', { from: client, to: agentA, thread: 'th_pg_two_instances' });
    const posted = await fetch(`${one.url}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(posted.status).toBe(200);
    const page = (await (await poll).json()) as { ok: boolean; events: { id: string }[]; cursor: string };
    expect(page.ok).toBe(true);
    expect(page.events.map((e) => e.id)).toEqual([request.id]);
    // And it reads back on either instance, byte for byte the same.
    const [fromOne, fromTwo] = await Promise.all(
      [one, two].map(async (sb) => (await fetch(`${sb.url}/events?since=cur_${head}&timeout=0`)).text()),
    );
    expect(fromTwo).toBe(fromOne);
    expect(fromOne).toContain(request.id);
  });
});

describe('store-head watch over LISTEN/NOTIFY', () => {
  it('wakes a waiter on one store for an append through another, with the polling fallback out of the way', async () => {
    const url = await pg.url();
    const [writer, reader] = [await openPgStore({ url }), await openPgStore({ url })];
    const services = createRelayServices({ store: reader.relay, clock: manualClock(T0) });
    // An hour between head reads: only a notification can wake the waiter within the test.
    const stop = watchStoreHead(services, 3_600_000);
    try {
      const head = await reader.relay.headSeq();
      // The listener connects in the background; its first report is the head, then it is live.
      while (services.feed.lastSeq < head) await new Promise((resolve) => setTimeout(resolve, 10));
      const waiting = services.feed.wait(head, {}, 10, 10_000);
      const appended = await writer.relay.appendEvent(
        {
          id: 'notify-1',
          kind: 'event',
          digest: 'd',
          type: 'REQUEST',
          sender: 's',
          recipient: 'r',
          threadId: 'tn',
          ts: T0,
          receivedAt: T0,
          expiresAt: T0 + 60_000,
          json: '{}',
        },
        (thread) => ({
          ok: true,
          value: { state: { status: 'OPEN', threadId: thread?.threadId ?? 'tn' } as never, deadlineAt: null },
        }),
      );
      expect(appended.outcome).toBe('stored');
      // 'refetch': the feed learnt of a seq it did not publish itself, and the waiter re-reads.
      expect(await waiting).toEqual({ kind: 'refetch' });
      expect(services.feed.lastSeq).toBe(head + 1);
    } finally {
      stop();
      services.feed.close();
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});
