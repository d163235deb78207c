// Agents rejected repeatedly (shared/inbox/rules.ts, repeatedRejects): the gateway tells each
// decision it stores; the rejects of the last hour are kept per agent and room (the summary
// counts them too), and a timer lets a burst lapse once its window has passed. At start the
// window is read back from history: each reject's message_id names the candidate, whose
// authenticated publisher is the agent.
import { RejectReason } from '@shared/aor/reject-reasons';
import type { InboxItem } from '@shared/contract/inbox';
import { repeatedRejects } from '@shared/inbox/rules';
import { rejectsTitle } from '@shared/inbox/titles';
import type { Gateway } from '../gateway/gateway';
import type { StoredRoomMessage } from '../store/store';
import { parseJson, roomName, type InboxSource, type SourceContext } from './source-context';

const PREFIX = 'rejects:';
const HOUR_MS = 60 * 60_000;
/** Rejects kept per agent and room at most: enough for any count the title needs. */
const MAX_KEPT = 1_000;
/** Rows read back per room at start, newest first. */
const REBUILD_PAGE = 2_000;

export interface RejectsSource extends InboxSource {
  /** Rejects stored in the last hour, every agent and room. */
  lastHour(): number;
}

export function startRejectsSource(ctx: SourceContext, gateway: Gateway, everyMs = 10_000): RejectsSource {
  const { board, store, clock } = ctx;
  /** `roomId\0agentId` → reject times, oldest first. */
  const times = new Map<string, number[]>();
  const names = new Map<string, string>();

  const evaluate = (roomId: string, agentId: string) => {
    const id = `${PREFIX}${roomId}:${agentId}`;
    const burst = repeatedRejects(times.get(`${roomId}\u0000${agentId}`) ?? [], clock.now());
    if (!burst) return board.remove(id);
    const item: InboxItem = {
      id,
      kind: 'rejects',
      urgency: 'soon',
      title: rejectsTitle(agentId, burst.count, names.get(roomId) ?? roomId),
      quote: null,
      since: burst.since,
      dueAt: null,
      href: `/rooms/${encodeURIComponent(roomId)}`,
      ref: { kind: 'rejects', roomId, agentId, count: burst.count },
      claim: null,
    };
    board.put(item);
  };

  const note = (roomId: string, agentId: string, at: number) => {
    const key = `${roomId}\u0000${agentId}`;
    const list = times.get(key) ?? [];
    list.push(at);
    if (list.length > MAX_KEPT) list.splice(0, list.length - MAX_KEPT);
    times.set(key, list);
  };

  const prune = () => {
    const horizon = clock.now() - HOUR_MS;
    for (const [key, list] of times) {
      const kept = list.filter((at) => at > horizon);
      if (kept.length === 0) times.delete(key);
      else times.set(key, kept);
      const [roomId, agentId] = key.split('\u0000') as [string, string];
      evaluate(roomId, agentId);
    }
    // Items whose times were all pruned.
    for (const item of board.current())
      if (item.ref.kind === 'rejects' && !times.has(`${item.ref.roomId}\u0000${item.ref.agentId}`))
        board.remove(item.id);
  };

  const off = gateway.onDecided((decided) => {
    if (decided.kind !== 'reject' || decided.agentId === null) return;
    const { roomId, agentId } = decided;
    note(roomId, agentId, decided.at);
    if (names.has(roomId)) return evaluate(roomId, agentId);
    void roomName(store, roomId).then((name) => {
      names.set(roomId, name);
      evaluate(roomId, agentId);
    });
  });
  const timer = setInterval(prune, everyMs);
  timer.unref();

  return {
    async rebuild() {
      const horizon = clock.now() - HOUR_MS;
      times.clear();
      for (const room of await store.rooms.listRooms()) {
        names.set(room.id, room.name || room.id);
        const page = await store.rooms.listMessages({
          roomId: room.id,
          topicKinds: ['public_candidates', 'control'],
          limit: REBUILD_PAGE,
        });
        const publisher = new Map<string, string>();
        for (const m of page.messages)
          if (m.topicKind === 'public_candidates' && m.messageId && m.topicAgentId)
            publisher.set(m.messageId, m.topicAgentId);
        for (const m of page.messages) {
          if (m.type !== 'reject' || m.topicKind !== 'control' || m.receivedAt <= horizon) continue;
          const agentId = rejectedAgent(m, publisher);
          if (agentId) note(room.id, agentId, m.receivedAt);
        }
      }
      prune();
    },
    lastHour() {
      const horizon = clock.now() - HOUR_MS;
      let count = 0;
      for (const list of times.values()) for (const at of list) if (at > horizon) count++;
      return count;
    },
    stop() {
      clearInterval(timer);
      off();
    },
  };
}

/**
 * The agent a stored reject was about: the gateway's own rejects name the candidate's id. A
 * facilitator's rejection of a review item is not counted, as the live count does not count it.
 */
export function rejectedAgent(reject: StoredRoomMessage, publisher: ReadonlyMap<string, string>): string | undefined {
  if (reject.fromId !== 'gateway') return undefined;
  const payload = (parseJson(reject.payload) as { payload?: { message_id?: unknown; reason?: unknown } } | undefined)
    ?.payload;
  if (payload?.reason === RejectReason.facilitatorRejected) return undefined;
  return typeof payload?.message_id === 'string' ? publisher.get(payload.message_id) : undefined;
}
