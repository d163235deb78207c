// Task goals from a room's history, against both engines: the newest task per id, only `task`
// envelopes on an inbox, and a bounded read.
import { afterAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../store/pg/pg-store';
import type { Store } from '../store/store';
import { usePgDatabase } from '../test-support/pg-database';
import { tempStore } from '../test-support/temp-store';
import { readTaskGoals } from './task-goals';

const pg = usePgDatabase();
const sqlite = tempStore();
afterAll(() => sqlite.dispose());

const engines: [string, () => Promise<Store>][] = [
  ['SQLite', async () => sqlite.store],
  ['PostgreSQL', async () => openPgStore({ url: await pg.url() })],
];

const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

describe.each(engines)('readTaskGoals on %s', (engine, open) => {
  it('names each task by its newest goal and ignores everything that is not a task to an inbox', async () => {
    const store = await open();
    try {
      const roomId = `goals-${engine.toLowerCase()}`;
      await store.rooms.ensureRoom({ id: roomId, name: 'Goals', moderation: 'auto' });
      let at = 1;
      const put = (topicKind: 'inbox' | 'public', type: string | null, payload: unknown, agent = 'agent.a') =>
        store.rooms.appendMessage({
          roomId,
          topic: topicKind === 'inbox' ? `rooms/${roomId}/agents/${agent}/inbox` : `rooms/${roomId}/public`,
          topicKind,
          topicAgentId: topicKind === 'inbox' ? agent : null,
          messageId: `m${at}`,
          type,
          fromId: 'did:key:z6MkOperator',
          payload: bytes(payload),
          receivedAt: at++,
        });
      await put('inbox', 'task', { type: 'task', payload: { task_id: 't1', goal: 'First goal' } });
      await put(
        'inbox',
        'task',
        { type: 'task', payload: { task_id: 't2', goal: '  Compare three APIs ' } },
        'agent.b',
      );
      await put('inbox', 'task', { type: 'task', payload: { task_id: 't1', goal: 'Second goal' } });
      await put('public', 'task', { type: 'task', payload: { task_id: 't3', goal: 'Not on an inbox' } });
      await put('inbox', 'task', { type: 'task', payload: { task_id: 't4', goal: '   ' } });
      await put('inbox', 'task', '{not json');
      await put('inbox', 'say', { type: 'say', payload: { task_id: 't5', goal: 'A say' } });

      const goals = await readTaskGoals(store, roomId);
      expect(goals).toEqual([
        { taskId: 't1', agentId: 'agent.a', goal: 'Second goal', assignedAt: 3 },
        { taskId: 't2', agentId: 'agent.b', goal: 'Compare three APIs', assignedAt: 2 },
      ]);
      // Bounded: only the newest `limit` task envelopes are read.
      expect((await readTaskGoals(store, roomId, 1)).map((g) => g.taskId)).toEqual([]);
      expect((await readTaskGoals(store, roomId, 4)).map((g) => g.taskId)).toEqual(['t1', 't2']);
    } finally {
      if (engine === 'PostgreSQL') await store.close();
    }
  });
});
