// History retention per room, end to end (decisions-server.md §25): a facilitator sets it with
// PATCH /api/rooms/:id, the sweeper applies it on its timer, and a room without it keeps all.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fullApp, type FullApp } from '../test-support/full-app';
import { startRetentionSweeper } from './retention-sweeper';

let f: FullApp;
const ORIGIN = 'http://localhost';
const patch = (roomId: string, body: unknown, cookie = f.facilitator) =>
  f.app.request(`/api/rooms/${roomId}`, {
    method: 'PATCH',
    headers: { origin: ORIGIN, cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const getRoom = async (roomId: string) =>
  (
    (await (await f.app.request(`/api/rooms/${roomId}`, { headers: { cookie: f.observer } })).json()) as {
      room: Record<string, unknown>;
    }
  ).room;

async function fill(roomId: string, n: number) {
  for (let i = 0; i < n; i += 1) {
    await f.harness.store.rooms.appendMessage({
      roomId,
      topic: `rooms/${roomId}/public`,
      topicKind: 'public',
      topicAgentId: null,
      messageId: `m${i}`,
      type: 'say',
      fromId: 'x',
      payload: new TextEncoder().encode(`{"n":${i}}`),
      receivedAt: f.clock.now(),
    });
  }
}
const count = async (roomId: string) =>
  (await f.harness.store.rooms.listMessages({ roomId, limit: 10_000 })).messages.length;

beforeAll(async () => {
  f = await fullApp();
  await f.harness.rooms.create({ id: 'capped', name: 'Capped', moderation: 'auto' });
  await f.harness.rooms.create({ id: 'kept', name: 'Kept', moderation: 'auto' });
});
afterAll(() => f.close());
afterEach(() => vi.useRealTimers());

describe('PATCH /api/rooms/:id retention', () => {
  it("lets a facilitator set and clear a room's retention, shown on the room and in the audit log", async () => {
    const set = await patch('capped', { retention: { maxMessages: 10, maxAgeDays: null } });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { room: unknown }).room).toMatchObject({
      id: 'capped',
      moderation: 'auto',
      retention: { maxMessages: 10, maxAgeDays: null },
    });
    expect(await getRoom('capped')).toMatchObject({ retention: { maxMessages: 10, maxAgeDays: null } });
    const [entry] = await f.harness.store.access.listAudit({ roomId: 'capped', limit: 1 });
    expect(entry).toMatchObject({
      action: 'room.retention',
      details: { from: null, to: { maxMessages: 10, maxAgeDays: null } },
    });
    await patch('kept', { retention: { maxMessages: 3, maxAgeDays: 7 } });
    expect((await patch('kept', { retention: null })).status).toBe(200);
    expect(await getRoom('kept')).not.toHaveProperty('retention');
  });

  it('refuses an observer, and bad settings, each with a code', async () => {
    const byObserver = await patch('capped', { retention: { maxMessages: 1, maxAgeDays: null } }, f.observer);
    expect(byObserver.status).toBe(403);
    for (const body of [
      {},
      { retention: { maxMessages: 0, maxAgeDays: null } },
      { retention: { maxMessages: 5 } },
      { retention: { maxMessages: null, maxAgeDays: 1.5 } },
      { retention: { maxMessages: null, maxAgeDays: 36_501 } },
      { retention: { maxMessages: null, maxAgeDays: null } }, // say "null" to keep everything
      { retention: { maxMessages: 5, maxAgeDays: null, maxBytes: 1 } },
    ]) {
      const res = await patch('capped', body);
      expect([JSON.stringify(body), res.status, ((await res.json()) as { code: string }).code]).toEqual([
        JSON.stringify(body),
        400,
        'INVALID_REQUEST',
      ]);
    }
    expect(await getRoom('capped')).toMatchObject({ retention: { maxMessages: 10, maxAgeDays: null } });
  });
});

describe('the retention sweeper', () => {
  it("on its timer, keeps at most the room's N newest messages and everything in a room without a setting", async () => {
    await fill('capped', 25);
    await fill('kept', 25);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = startRetentionSweeper(f.harness.store.rooms, f.clock, 60_000);
    expect(await count('capped')).toBe(25); // nothing before the first tick
    await vi.advanceTimersByTimeAsync(60_000);
    await stop(); // waits for the sweep the tick started
    expect(await count('capped')).toBe(10);
    expect(await count('kept')).toBe(25);
  });
});
