// What both engines' activity aggregates (RoomStore.roomActivity, rejectsByAgent) take from a
// stored row and how they are read (decisions-server.md §64, §73). Every history row adds one to
// its room's minute; an approved copy also to that minute's `approved`; a `reject` on control one
// to its (room, minute, reason, agent) bucket. A reject's reason and the id of the candidate it
// refused are in its payload (AOR §5.7), not in a column, and the payload is bytes: parsed here,
// once for both engines, when the row is written, so a malformed one counts as `unknown`.
import type { AgentRejectCount, NewRoomMessage } from '../store';

export const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The aggregates' buckets are kept a day: the screens read the last hour (decisions-server.md §73). */
export const ACTIVITY_KEPT_MS = 24 * HOUR_MS;
/** `reject` rows on control are kept this long, whatever the room's own retention (decisions-server.md §74). */
export const REJECTS_KEPT_MS = 24 * HOUR_MS;
/** The agent column of a reject counted for nobody (no message id, or no known publisher). */
export const NOBODY = '';

/** The UTC minute holding `ms`, as the epoch ms of its start: the aggregates' bucket. */
export const minuteOf = (ms: number): number => Math.floor(ms / MINUTE_MS) * MINUTE_MS;

/**
 * The buckets a room's window reads: from the minute holding `sinceMs` through the minute holding
 * `nowMs`, and never a minute before the one holding `nowMs - 1 h` (at most 61 buckets). A window
 * is read in whole minutes: a row late in `nowMs`'s minute counts, as does one early in
 * `sinceMs`'s.
 */
export function windowMinutes(sinceMs: number, nowMs: number): { readonly first: number; readonly last: number } {
  return { first: Math.max(minuteOf(sinceMs), minuteOf(nowMs - HOUR_MS)), last: minuteOf(nowMs) };
}

/** A `reject` envelope on control (AOR §5.7), the rows the reject buckets count. */
export const isReject = (m: Pick<NewRoomMessage, 'topicKind' | 'type'>): boolean =>
  m.topicKind === 'control' && m.type === 'reject';

/** A public row that names a message id: an approved copy when an earlier candidate has that id. */
export const mayBeApproved = (
  m: Pick<NewRoomMessage, 'topicKind' | 'messageId'>,
): m is { messageId: string } & typeof m => m.topicKind === 'public' && m.messageId !== null;

export interface RejectFields {
  /** The AOR §5.7 reason, or `unknown` when the payload names none. */
  readonly reason: string;
  /** The refused candidate's envelope id; null when the gateway could not read one. */
  readonly messageId: string | null;
}

const utf8 = new TextDecoder();
/** Longer than any AOR reason; a longer one is not a reason the console can name. */
const MAX_REASON = 64;

export function rejectFields(payload: Uint8Array): RejectFields {
  let body: { reason?: unknown; message_id?: unknown } | undefined;
  try {
    const envelope = JSON.parse(utf8.decode(payload)) as { payload?: unknown } | null;
    if (envelope && typeof envelope.payload === 'object' && envelope.payload !== null)
      body = envelope.payload as typeof body;
  } catch {
    body = undefined;
  }
  const reason = body?.reason;
  const messageId = body?.message_id;
  return {
    reason: typeof reason === 'string' && reason.length > 0 && reason.length <= MAX_REASON ? reason : 'unknown',
    messageId: typeof messageId === 'string' && messageId.length > 0 ? messageId : null,
  };
}

/** Summed buckets by reason, most first, then by reason. */
export function byReason(rows: readonly { reason: string; count: number }[]): { reason: string; count: number }[] {
  return rows.map(({ reason, count }) => ({ reason, count })).sort(byCount((r) => r.reason));
}

/** Summed buckets per agent, most first, then by agent id; NOBODY's are left out. */
export function byAgent(rows: readonly { agent_id: string; rejects: number }[]): AgentRejectCount[] {
  return rows
    .filter((r) => r.agent_id !== NOBODY && r.rejects > 0)
    .map((r) => ({ agentId: r.agent_id, rejects: r.rejects }))
    .sort(byCount((r) => r.agentId));
}

const byCount =
  <T extends { count: number } | { rejects: number }>(name: (row: T) => string) =>
  (a: T, b: T): number => {
    const n = (row: T) => ('count' in row ? row.count : row.rejects);
    return n(b) - n(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
  };
