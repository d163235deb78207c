// What both engines' health queries (RoomStore.roomActivity, rejectsByAgent) read from a stored
// `reject` and how they tally it (decisions-server.md §64). A reject's reason and the id of the
// candidate it refused are in its payload (AOR §5.7), not in a column, and the payload is bytes:
// parsed here, once for both engines, so a malformed one counts as `unknown` instead of failing
// the whole query inside the database.
import type { AgentRejectCount } from '../store';

/** A reject row as the health queries read it. */
export interface RejectRow {
  room_id: string;
  cursor: number;
  payload: Buffer;
}

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

/** Rejects by reason, most first, then by reason. */
export function countReasons(rows: readonly { payload: Uint8Array }[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const { reason } = rejectFields(row.payload);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => ({ reason, count })).sort(byCount((r) => r.reason));
}

/** Per agent, most first, then by agent id; a null (a reject attributed to nobody) is not counted. */
export function countAgents(agents: readonly (string | null)[]): AgentRejectCount[] {
  const counts = new Map<string, number>();
  for (const agentId of agents) if (agentId !== null) counts.set(agentId, (counts.get(agentId) ?? 0) + 1);
  return [...counts].map(([agentId, rejects]) => ({ agentId, rejects })).sort(byCount((r) => r.agentId));
}

const byCount =
  <T extends { count: number } | { rejects: number }>(name: (row: T) => string) =>
  (a: T, b: T): number => {
    const n = (row: T) => ('count' in row ? row.count : row.rejects);
    return n(b) - n(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
  };

export const MINUTE_MS = 60_000;
