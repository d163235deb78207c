// What the recorder reads out of a room message before storing it, against both engines: the
// lenient fields must fit PostgreSQL as well as SQLite (decisions-server.md §17).
import { afterAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../store/pg/pg-store';
import type { Store } from '../store/store';
import { usePgDatabase } from '../test-support/pg-database';
import { tempStore } from '../test-support/temp-store';
import { MAX_HEARTBEAT_BYTES, MAX_WORK_BYTES } from '@shared/aor/payload-size';
import { RefusedPublish } from '../mqtt/refused-publish';
import { PublishQuotas } from '../mqtt/publish-quotas';
import { manualClock } from '../test-support/manual-clock';
import { HistoryRecorder, recordOnArrival } from './history-recorder';
import { RoomRegistry } from './room-registry';

const pg = usePgDatabase();
const sqlite = tempStore();
afterAll(() => sqlite.dispose());

const engines: [string, () => Promise<Store>][] = [
  ['SQLite', async () => sqlite.store],
  ['PostgreSQL', async () => openPgStore({ url: await pg.url() })],
];

describe.each(engines)('HistoryRecorder on %s', (engine, open) => {
  it('stores a message whose id, type or sender holds U+0000 with those fields unread and its bytes exact', async () => {
    const store = await open();
    try {
      const roomId = `nul-${engine.toLowerCase()}`;
      await store.rooms.ensureRoom({ id: roomId, name: 'NUL', moderation: 'auto' });
      const recorder = new HistoryRecorder(store, new RoomRegistry(store));
      const text = JSON.stringify({
        id: 'm\u00001',
        type: 'chat\u0000',
        from: { kind: 'agent', id: '\u0000' },
        payload: {},
      });
      const payload = new TextEncoder().encode(text);
      const stored = await recorder.record({
        topic: `rooms/${roomId}/public`,
        payload,
        publisher: null,
        receivedAt: 1,
      });
      expect(stored).toMatchObject({ messageId: null, type: null, fromId: null });
      const { messages } = await store.rooms.listMessages({ roomId, limit: 10 });
      expect(new TextDecoder().decode(messages[0]!.payload)).toBe(text);
      // The ordinary case still reads every field, cut at 256 characters.
      const long = await recorder.record({
        topic: `rooms/${roomId}/public`,
        payload: new TextEncoder().encode(
          JSON.stringify({ id: 'x'.repeat(300), type: 'chat', from: { id: 'agent-a' } }),
        ),
        publisher: null,
        receivedAt: 2,
      });
      expect(long).toMatchObject({ messageId: 'x'.repeat(256), type: 'chat', fromId: 'agent-a' });
    } finally {
      if (engine === 'PostgreSQL') await store.close();
    }
  });
});

describe("HistoryRecorder on an external broker's messages (decision AOR 20, decisions-server.md §45)", () => {
  const heartbeat = (agentId: string) => `rooms/ext/agents/${agentId}/heartbeat`;
  const bytes = (n: number) => new Uint8Array(n).fill(0x7a);

  it('refuses a heartbeat over 4 KiB and work over 64 KiB and stores neither; at the cap they are stored', async () => {
    const store = sqlite.store;
    await store.rooms.ensureRoom({ id: 'ext', name: 'External', moderation: 'auto' });
    const { beforeDispatch } = recordOnArrival(
      new HistoryRecorder(store, new RoomRegistry(store)),
      async () => undefined,
    );
    const at = (topic: string, size: number) =>
      beforeDispatch({ topic, payload: bytes(size), publisher: null, receivedAt: 1 });
    await expect(at(heartbeat('agent.big'), MAX_HEARTBEAT_BYTES + 1)).rejects.toThrow(
      new RefusedPublish('payload_too_large'),
    );
    await expect(at('rooms/ext/agents/agent.big/work', MAX_WORK_BYTES + 1)).rejects.toThrow(RefusedPublish);
    await at(heartbeat('agent.big'), MAX_HEARTBEAT_BYTES);
    await at('rooms/ext/agents/agent.big/work', MAX_WORK_BYTES);
    const { messages } = await store.rooms.listMessages({ roomId: 'ext', limit: 100, agentId: 'agent.big' });
    expect(messages.map((m) => [m.topicKind, m.payload.byteLength])).toEqual([
      ['heartbeat', MAX_HEARTBEAT_BYTES],
      ['work', MAX_WORK_BYTES],
    ]);
  });

  it("holds each agent to its publish quota: heartbeats and work by the topic's agent, candidates by their publisher", async () => {
    const store = sqlite.store;
    await store.rooms.ensureRoom({ id: 'ext', name: 'External', moderation: 'auto' });
    const clock = manualClock();
    const admitted: string[] = [];
    const quotas = new PublishQuotas(
      { messages: { capacity: 3, refillPerSecond: 3 / 60 }, bytes: undefined },
      clock,
      () => undefined,
    );
    const { beforeDispatch } = recordOnArrival(
      new HistoryRecorder(store, new RoomRegistry(store)),
      async (m) => void admitted.push(m.topic),
      quotas,
    );
    const results = [];
    for (let i = 0; i < 5; i += 1) {
      results.push(
        await beforeDispatch({
          topic: heartbeat('agent.ext'),
          payload: bytes(10),
          publisher: null,
          receivedAt: 1,
        }).then(
          () => 'stored',
          (e: Error) => e.message,
        ),
      );
    }
    expect(results).toEqual(['stored', 'stored', 'stored', 'message_rate_too_high', 'message_rate_too_high']);
    const candidate = {
      topic: 'rooms/ext/public_candidates',
      payload: bytes(10),
      publisher: { kind: 'agent' as const, agentId: 'agent.ext' },
      receivedAt: 1,
    };
    await expect(beforeDispatch(candidate)).rejects.toThrow(new RefusedPublish('message_rate_too_high'));
    expect(admitted).toEqual([]);
    clock.advance(20_000); // one message refilled
    await beforeDispatch(candidate);
    expect(admitted).toEqual(['rooms/ext/public_candidates']);
    const { messages } = await store.rooms.listMessages({
      roomId: 'ext',
      limit: 100,
      agentId: 'agent.ext',
      topicKinds: ['heartbeat'],
    });
    expect(messages).toHaveLength(3);
  });
});
