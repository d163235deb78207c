// The gateway's rejects per agent since a time, read from room history: each reject on control
// names its candidate's id, whose topic names the agent (inbox/rejects-source.ts reads them the
// same way). Provisional: each room's newest page only, until the store answers it in one query.
import { rejectedAgent } from '../inbox/rejects-source';
import type { Store } from '../store/store';

/** Rows read per room, newest first: more than an hour of rejects in any room we have seen. */
const PAGE = 2_000;

export function historyRejects(store: Store) {
  return async (sinceMs: number): Promise<ReadonlyMap<string, number>> => {
    const counts = new Map<string, number>();
    for (const room of await store.rooms.listRooms()) {
      const page = await store.rooms.listMessages({
        roomId: room.id,
        topicKinds: ['public_candidates', 'control'],
        limit: PAGE,
      });
      const publisher = new Map<string, string>();
      for (const m of page.messages)
        if (m.topicKind === 'public_candidates' && m.messageId && m.topicAgentId)
          publisher.set(m.messageId, m.topicAgentId);
      for (const m of page.messages) {
        if (m.type !== 'reject' || m.topicKind !== 'control' || m.receivedAt < sinceMs) continue;
        const agentId = rejectedAgent(m, publisher);
        if (agentId) counts.set(agentId, (counts.get(agentId) ?? 0) + 1);
      }
    }
    return counts;
  };
}
