// Two instances stopping at the same moment (docs/decisions-cluster.md C4): they decide one at a
// time whether to leave the share group, so the last keeps its share of the agents' messages.
// What agents send while both are down then waits in that instance's session and is decided when
// it is back, instead of being dropped by a share group with no member.
import { describe, expect, it } from 'vitest';
import { T0 } from '@shared/agora/test-support/fixtures';
import { agentCandidateTopic } from '../mqtt/dynsec-acls';
import type { RunningSwitchboard } from '../runtime/start-switchboard';
import { startCluster } from '../test-support/cluster-harness';
import { manualClock } from '../test-support/manual-clock';
import { connectClient } from '../test-support/mqtt-clients';
import { usePgDatabase } from '../test-support/pg-database';
import { startPrivateMosquitto } from '../test-support/private-mosquitto';

const pg = usePgDatabase();
const TS = Math.floor(T0 / 1000);

const candidate = (id: string) =>
  JSON.stringify({
    id,
    type: 'result',
    room_id: 'r1',
    from: { kind: 'agent', id: 'agent.one' },
    ts: TS,
    payload: { task_id: 't1', message_type: 'progress', content: { text: id } },
  });

/** The ids among `ids` approved on `public`, once each or not. */
async function approved(sb: RunningSwitchboard, ids: readonly string[]): Promise<string[]> {
  const rows = (await sb.store.rooms.listMessages({ roomId: 'r1', limit: 1000, topicKinds: ['public'] })).messages;
  return rows.map((m) => m.messageId ?? '').filter((id) => ids.includes(id));
}

describe('two instances stopping together', () => {
  it('keeps one share, so candidates sent while both are down are decided once they are back', async () => {
    const mosquitto = await startPrivateMosquitto();
    const cluster = await startCluster({
      mosquitto,
      databaseUrl: await pg.url(),
      instances: 2,
      clock: () => manualClock(T0),
    });
    try {
      const [a, b] = cluster.instances as [RunningSwitchboard, RunningSwitchboard];
      await a.rooms.create({ id: 'r1', name: 'Room', moderation: 'auto' });
      await a.store.rooms.putGrant({
        roomId: 'r1',
        agentId: 'agent.one',
        taskId: 't1',
        maxMessages: 100,
        allowedTypes: ['progress'],
        expiresAt: TS + 3600,
        grantedAt: TS,
        grantMessageId: 'g1',
      });
      const agent = await connectClient(mosquitto.url, {
        username: 'agent.one',
        password: await cluster.addAgent('agent.one'),
        clientId: 'agent.one',
      });
      await Promise.all([a.close(), b.close()]);
      // Mosquitto acknowledges each: it is queued for the session that kept the share, or dropped.
      const ids = Array.from({ length: 20 }, (_, i) => `down_${i}`);
      for (const id of ids)
        await agent.client.publishAsync(agentCandidateTopic('r1', 'agent.one'), candidate(id), { qos: 1 });
      const back = [await cluster.restartInstance(a), await cluster.restartInstance(b)];
      let seen: string[] = [];
      while (seen.length < ids.length) {
        seen = await approved(back[0]!, ids);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(seen.sort()).toEqual([...ids].sort());
      await agent.client.endAsync(true);
    } finally {
      await cluster.close();
      await mosquitto.stop();
    }
  });
});
