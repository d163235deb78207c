// What the timeline shows: filters by agent, message type, topic and text, kept in the URL's
// search params so a filtered view (and a permalink, `m`) can be shared. The same predicate runs
// over history and over every message that arrives later.
import type { Timeline, TimelineEntry } from '@web/lib/mqtt/timeline-merge';

export const TIMELINE_TOPICS = ['public', 'control', 'all'] as const;
export type TimelineTopic = (typeof TIMELINE_TOPICS)[number];

export interface TimelineSearch {
  /** Agent id (or DID): the sender, the topic's agent, or the agent a control message names. */
  readonly agent?: string | undefined;
  /** Message type: AOR `message_type` of a result (ack, finding, …) or the envelope type. */
  readonly type?: string | undefined;
  /** Free text, case-insensitive, over the raw message. */
  readonly q?: string | undefined;
  /** Which room topics: public (default), control, or both. */
  readonly topic?: TimelineTopic | undefined;
  /** Permalink: the cursor of the message to open on. */
  readonly m?: number | undefined;
}

const text = (value: unknown): string | undefined => {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return s ? s.slice(0, 200) : undefined;
};

/** The router's validateSearch: anything unknown or malformed is dropped, never an error page. */
export function parseTimelineSearch(search: Record<string, unknown>): TimelineSearch {
  const out: { -readonly [K in keyof TimelineSearch]: TimelineSearch[K] } = {};
  const agent = text(search.agent);
  const type = text(search.type);
  const q = text(search.q);
  if (agent) out.agent = agent;
  if (type) out.type = type;
  if (q) out.q = q;
  if (
    typeof search.topic === 'string' &&
    (TIMELINE_TOPICS as readonly string[]).includes(search.topic) &&
    search.topic !== 'public'
  ) {
    out.topic = search.topic as TimelineTopic;
  }
  const m = typeof search.m === 'string' ? Number(search.m) : search.m;
  if (typeof m === 'number' && Number.isSafeInteger(m) && m >= 0) out.m = m;
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The type a reader calls a message by: a result's `message_type`, else the envelope type. */
export function messageTypeOf(entry: Pick<TimelineEntry, 'envelope' | 'type'>): string | null {
  const env = isRecord(entry.envelope) ? entry.envelope : {};
  const payload = isRecord(env.payload) ? env.payload : {};
  if (typeof payload.message_type === 'string') return payload.message_type;
  return typeof env.type === 'string' ? env.type : entry.type;
}

function agentsOf(entry: TimelineEntry): string[] {
  const agents = [entry.fromId, entry.topicAgentId];
  const env = isRecord(entry.envelope) ? entry.envelope : {};
  const payload = isRecord(env.payload) ? env.payload : {};
  // A grant, revoke or reject on control is about the agent it names.
  if (typeof payload.agent_id === 'string') agents.push(payload.agent_id);
  return agents.filter((a): a is string => a !== null);
}

export function topicKindsFor(topic: TimelineTopic | undefined): readonly string[] {
  return topic === 'control' ? ['control'] : topic === 'all' ? ['public', 'control'] : ['public'];
}

/** A compiled filter: one predicate for history and for whatever arrives later. */
export function timelineFilter(search: TimelineSearch): (entry: TimelineEntry) => boolean {
  const kinds = topicKindsFor(search.topic);
  const agent = search.agent;
  const type = search.type?.toLowerCase();
  const q = search.q?.toLowerCase();
  return (entry) => {
    if (!kinds.includes(entry.topicKind)) return false;
    if (agent && !agentsOf(entry).includes(agent)) return false;
    if (type) {
      const t = messageTypeOf(entry)?.toLowerCase();
      if (t !== type && entry.type?.toLowerCase() !== type) return false;
    }
    if (q && !entry.raw.toLowerCase().includes(q)) return false;
    return true;
  };
}

export const isFiltered = (search: TimelineSearch): boolean =>
  Boolean(search.agent || search.type || search.q || search.topic);

type EntryFilter = (entry: TimelineEntry) => boolean;
const lastRun = new WeakMap<
  EntryFilter,
  { readonly entries: readonly TimelineEntry[]; readonly result: readonly TimelineEntry[] }
>();

/**
 * `timeline.entries.filter(filter)`, but a live burst (which only appends) runs the filter over
 * the new entries alone: with tens of thousands held, re-filtering everything ten times a
 * second is what the live tail would otherwise spend its time on.
 */
export function filterTimeline(timeline: Timeline, filter: EntryFilter): readonly TimelineEntry[] {
  const previous = lastRun.get(filter);
  let result: readonly TimelineEntry[];
  if (previous && previous.entries === timeline.entries) result = previous.result;
  else if (previous && timeline.appendedTo !== undefined && previous.entries === timeline.appendedTo) {
    const added = timeline.entries.slice(timeline.appendedTo.length).filter(filter);
    result = added.length === 0 ? previous.result : [...previous.result, ...added];
  } else result = timeline.entries.filter(filter);
  lastRun.set(filter, { entries: timeline.entries, result });
  return result;
}
