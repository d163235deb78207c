// What the recorder reads out of a room message before storing it, against both engines: the
// lenient fields must fit PostgreSQL as well as SQLite (decisions-server.md §17).
import { afterAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../store/pg/pg-store';
import type { Store } from '../store/store';
import { usePgDatabase } from '../test-support/pg-database';
import { tempStore } from '../test-support/temp-store';
import { HistoryRecorder } from './history-recorder';
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
      await store.ensureRoom({ id: roomId, name: 'NUL', moderation: 'auto' });
      const recorder = new HistoryRecorder(store, new RoomRegistry(store));
      const text = JSON.stringify({ id: 'm\u00001', type: 'chat\u0000', from: { kind: 'agent', id: '\u0000' }, payload: {} });
      const payload = new TextEncoder().encode(text);
      const stored = await recorder.record({ topic: `rooms/${roomId}/public`, payload, publisher: null, receivedAt: 1 });
      expect(stored).toMatchObject({ messageId: null, type: null, fromId: null });
      const { messages } = await store.listMessages({ roomId, limit: 10 });
      expect(new TextDecoder().decode(messages[0]!.payload)).toBe(text);
      // The ordinary case still reads every field, cut at 256 characters.
      const long = await recorder.record({
        topic: `rooms/${roomId}/public`,
        payload: new TextEncoder().encode(JSON.stringify({ id: 'x'.repeat(300), type: 'chat', from: { id: 'agent-a' } })),
        publisher: null,
        receivedAt: 2,
      });
      expect(long).toMatchObject({ messageId: 'x'.repeat(256), type: 'chat', fromId: 'agent-a' });
    } finally {
      if (engine === 'PostgreSQL') await store.close();
    }
  });
});
