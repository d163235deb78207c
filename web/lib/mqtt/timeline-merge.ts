// Merging stored history (which has cursors) with live MQTT messages (which do not), so a
// dropped connection leaves neither a gap nor a duplicate.
//
// The rule:
// - An entry's identity is its topic plus its envelope id (the gateway republishes a candidate
//   to `public` unchanged, so the same id legitimately appears on two topics). Bytes that are not
//   an envelope have no id; their exact text stands in for it.
// - A live message whose identity is already known is dropped. A history message whose identity
//   is already known (it arrived live first) is not added again; it only lends that entry its
//   cursor and the server's receive time.
// - Order: entries with a cursor sort by cursor (the server's strict order); entries still
//   without one (live, not yet seen in history) follow, in arrival order. The server stores a
//   message before the broker delivers it, so anything live is newer than every cursor we hold,
//   and the next backfill (`after` = the highest cursor held) hands each of them its cursor.
//
// Pure functions over plain data, so the rule is unit-tested without a broker.

export interface TimelineEntry {
  readonly key: string;
  readonly cursor: number | null;
  /** Arrival order in this browser; breaks ties among entries without a cursor. */
  readonly seq: number;
  readonly topic: string;
  readonly topicKind: string;
  readonly topicAgentId: string | null;
  readonly messageId: string | null;
  readonly type: string | null;
  readonly fromId: string | null;
  /** Milliseconds since the epoch: the server's receive time once known, else this browser's. */
  readonly receivedAt: number;
  readonly raw: string;
  readonly envelope: unknown;
  readonly source: 'history' | 'live';
}

export type IncomingEntry = Omit<TimelineEntry, 'key' | 'seq'>;

export interface Timeline {
  readonly entries: readonly TimelineEntry[];
  readonly keys: ReadonlyMap<string, number>;
  /** Highest cursor held, the `after` of the next backfill; null before any history. */
  readonly lastCursor: number | null;
  readonly nextSeq: number;
  /**
   * Set when this timeline is exactly the entries array given here plus entries appended after
   * it (a live burst): readers that derive something per entry can then do only the new ones.
   */
  readonly appendedTo?: readonly TimelineEntry[];
}

/** Most entries kept per room; the oldest go first (scrolling up pages them back in). */
export const MAX_TIMELINE_ENTRIES = 50_000;

export const emptyTimeline: Timeline = { entries: [], keys: new Map(), lastCursor: null, nextSeq: 0 };

export const entryKey = (topic: string, messageId: string | null, raw: string): string =>
  messageId ? `${topic}\u0000id:${messageId}` : `${topic}\u0000raw:${raw}`;

const byOrder = (a: TimelineEntry, b: TimelineEntry): number => {
  if (a.cursor !== null && b.cursor !== null) return a.cursor - b.cursor;
  if (a.cursor !== null) return -1;
  if (b.cursor !== null) return 1;
  return a.seq - b.seq;
};

function rebuild(entries: TimelineEntry[], nextSeq: number): Timeline {
  entries.sort(byOrder);
  const kept = entries.length > MAX_TIMELINE_ENTRIES ? entries.slice(entries.length - MAX_TIMELINE_ENTRIES) : entries;
  const keys = new Map<string, number>();
  let lastCursor: number | null = null;
  kept.forEach((e, i) => {
    keys.set(e.key, i);
    if (e.cursor !== null && (lastCursor === null || e.cursor > lastCursor)) lastCursor = e.cursor;
  });
  return { entries: kept, keys, lastCursor, nextSeq };
}

/** Adds a page of history (any order); known entries gain their cursor instead of repeating. */
export function mergeHistory(timeline: Timeline, page: readonly IncomingEntry[]): Timeline {
  if (page.length === 0) return timeline;
  const entries = [...timeline.entries];
  const index = new Map(timeline.keys);
  let seq = timeline.nextSeq;
  for (const message of page) {
    const key = entryKey(message.topic, message.messageId, message.raw);
    const at = index.get(key);
    if (at !== undefined) {
      const known = entries[at]!;
      if (known.cursor === null) entries[at] = { ...known, cursor: message.cursor, receivedAt: message.receivedAt };
      continue;
    }
    index.set(key, entries.length);
    entries.push({ ...message, key, seq: seq++ });
  }
  const merged = rebuild(entries, seq);
  // The page's cursors count even when the oldest entries were trimmed away.
  const pageMax = Math.max(...page.map((m) => m.cursor ?? -1));
  const lastCursor = Math.max(merged.lastCursor ?? -1, timeline.lastCursor ?? -1, pageMax);
  return { ...merged, lastCursor: lastCursor < 0 ? null : lastCursor };
}

/** The lowest cursor held (the `before` of the next older page); null before any history. */
export function oldestCursor(timeline: Timeline): number | null {
  // Entries with a cursor sort first, lowest first.
  return timeline.entries[0]?.cursor ?? null;
}

/**
 * Adds a burst of live messages in one step: at 200 msg/s the connection hands them over once
 * per flush, so the arrays are copied once per burst rather than once per message.
 */
export function addLiveMany(timeline: Timeline, messages: readonly IncomingEntry[]): Timeline {
  const fresh: TimelineEntry[] = [];
  const seen = new Set<string>();
  let seq = timeline.nextSeq;
  for (const message of messages) {
    const key = entryKey(message.topic, message.messageId, message.raw);
    if (timeline.keys.has(key) || seen.has(key)) continue;
    seen.add(key);
    fresh.push({ ...message, cursor: null, key, seq: seq++ });
  }
  if (fresh.length === 0) return timeline;
  if (timeline.entries.length + fresh.length <= MAX_TIMELINE_ENTRIES) {
    const keys = new Map(timeline.keys);
    fresh.forEach((e, i) => keys.set(e.key, timeline.entries.length + i));
    return {
      entries: [...timeline.entries, ...fresh],
      keys,
      lastCursor: timeline.lastCursor,
      nextSeq: seq,
      appendedTo: timeline.entries,
    };
  }
  const next = rebuild([...timeline.entries, ...fresh], seq);
  return { ...next, lastCursor: timeline.lastCursor };
}

/** Adds one live message, unless its identity is already held. */
export function addLive(timeline: Timeline, message: IncomingEntry): Timeline {
  const key = entryKey(message.topic, message.messageId, message.raw);
  if (timeline.keys.has(key)) return timeline;
  const entry: TimelineEntry = { ...message, cursor: null, key, seq: timeline.nextSeq };
  if (timeline.entries.length < MAX_TIMELINE_ENTRIES) {
    // The common case: a cursorless entry sorts last, so appending keeps the order.
    const keys = new Map(timeline.keys);
    keys.set(key, timeline.entries.length);
    return {
      entries: [...timeline.entries, entry],
      keys,
      lastCursor: timeline.lastCursor,
      nextSeq: timeline.nextSeq + 1,
    };
  }
  const next = rebuild([...timeline.entries, entry], timeline.nextSeq + 1);
  return { ...next, lastCursor: timeline.lastCursor };
}
