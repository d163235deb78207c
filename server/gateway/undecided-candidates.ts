// Candidates that were stored (and so acknowledged to the agent) but never decided: the server
// stopped or crashed between recording a candidate and the gateway's decision
// (server/hardening/server-faults.test.ts, decisions-server.md §20). They are the newest candidates of a room, but live
// traffic may already have been decided after them, so a fixed window is read, not "until the
// first decided one".
import type { StoredRoomMessage, Store } from '../store/store';

/** How far back one room is read at most; a crash leaves at most a short tail undecided. */
export const MAX_RECOVERY_SCAN = 5_000;

const rejectedId = (m: StoredRoomMessage): string | undefined => {
  if (m.topicKind !== 'control' || m.type !== 'reject') return undefined;
  try {
    const id = (JSON.parse(new TextDecoder().decode(m.payload)) as { payload?: { message_id?: unknown } }).payload
      ?.message_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The room's undecided candidates, oldest first, each once; `visit` sees every candidate read, newest first. A candidate counts as decided when its id is on
 * public (approved), in a reject's message_id, or in the review queue. Candidates without an id
 * (malformed bytes) or without an authenticated publisher are skipped: they cannot be replayed.
 */
export async function undecidedCandidates(
  store: Store,
  roomId: string,
  visit?: (candidate: StoredRoomMessage) => void,
  /** Sees each decision in the window, newest first: an approved copy or a reject, by the candidate's id. */
  visitDecision?: (messageId: string, decision: StoredRoomMessage) => void,
): Promise<StoredRoomMessage[]> {
  const decided = new Set((await store.rooms.listReviewItems(roomId)).map((item) => item.messageId));
  const candidates: StoredRoomMessage[] = [];
  let before: number | undefined;
  let scanned = 0;
  while (scanned < MAX_RECOVERY_SCAN) {
    const page = await store.rooms.listMessages({ roomId, limit: 500, ...(before === undefined ? {} : { before }) });
    scanned += page.messages.length;
    for (const m of [...page.messages].reverse()) {
      if (m.topicKind === 'public' && m.messageId) {
        decided.add(m.messageId);
        visitDecision?.(m.messageId, m);
      }
      const rejected = rejectedId(m);
      if (rejected) {
        decided.add(rejected);
        visitDecision?.(rejected, m);
      }
      if (m.topicKind !== 'public_candidates' || !m.messageId || !m.topicAgentId) continue;
      visit?.(m);
      candidates.push(m);
    }
    if (!page.hasMore || page.messages.length === 0) break;
    before = page.messages[0]!.cursor;
  }
  // Decided anywhere in the window: a copy the broker delivered again after the decision is newer
  // than the decision, and is not undecided. Of several undecided copies, the oldest is decided.
  const pending = new Map<string, StoredRoomMessage>();
  for (const m of candidates) if (!decided.has(m.messageId!)) pending.set(`${m.topicAgentId}\u0000${m.messageId}`, m);
  return [...pending.values()].reverse();
}
