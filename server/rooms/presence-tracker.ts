// Who is present in each room, from heartbeats on `rooms/+/agents/+/heartbeat` and from the
// broker noticing a connection is gone. Changes are announced on a console topic so every
// console sees them at once; the rule itself lives in shared/aor/presence.ts.
import { parseEnvelope } from '@shared/aor/envelope';
import { afterHeartbeat, presenceStatus, type PresenceRecord, type PresenceStatus } from '@shared/aor/presence';
import { parseTopic } from '@shared/aor/topics';
import type { BrokerMessage, BrokerPort } from '../mqtt/broker-port';

export interface AgentPresence {
  readonly roomId: string;
  readonly agentId: string;
  readonly description: string | null;
  readonly status: PresenceStatus;
  readonly lastSeenAt: number;
  readonly intervalMs: number;
}

export const presenceTopicOf = (roomId: string) => `switchboard/rooms/${roomId}/presence`;

interface Entry {
  record: PresenceRecord;
  description: string | null;
  announced: PresenceStatus;
}

export class PresenceTracker {
  readonly #entries = new Map<string, Map<string, Entry>>();
  readonly #off: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly broker: BrokerPort,
    private readonly now: () => number,
  ) {
    this.#off = broker.onMessage('rooms/+/agents/+/heartbeat', (m) => this.#heartbeat(m));
  }

  start(sweepEveryMs = 1_000): void {
    this.#timer = setInterval(() => this.sweep(), sweepEveryMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#off();
    clearInterval(this.#timer);
  }

  list(roomId: string): AgentPresence[] {
    const now = this.now();
    return [...(this.#entries.get(roomId) ?? new Map<string, Entry>())]
      .map(([agentId, e]) => view(roomId, agentId, e, now))
      .sort((a, b) => a.agentId.localeCompare(b.agentId));
  }

  /**
   * The agent's best presence across rooms (online > stale > offline), for the directory; the
   * most recent sighting breaks ties. Undefined when it never sent a heartbeat.
   */
  agentStatus(agentId: string): AgentPresence | undefined {
    const now = this.now();
    const rank: Record<PresenceStatus, number> = { online: 3, stale: 2, offline: 1 };
    let best: AgentPresence | undefined;
    for (const [roomId, agents] of this.#entries) {
      const entry = agents.get(agentId);
      if (!entry) continue;
      const current = view(roomId, agentId, entry, now);
      if (
        !best ||
        rank[current.status] > rank[best.status] ||
        (rank[current.status] === rank[best.status] && current.lastSeenAt > best.lastSeenAt)
      )
        best = current;
    }
    return best;
  }

  /** Every room the agent has sent a heartbeat in, with when it was last heard there. */
  roomsOf(agentId: string): { readonly roomId: string; readonly lastSeenAt: number }[] {
    const rooms: { roomId: string; lastSeenAt: number }[] = [];
    for (const [roomId, agents] of this.#entries) {
      const entry = agents.get(agentId);
      if (entry) rooms.push({ roomId, lastSeenAt: view(roomId, agentId, entry, this.now()).lastSeenAt });
    }
    return rooms;
  }

  /** The agent's connection is gone (embedded broker): offline in every room it was in. */
  disconnected(agentId: string): void {
    for (const [roomId, agents] of this.#entries) {
      const entry = agents.get(agentId);
      if (!entry || entry.record.offlineAt !== null) continue;
      entry.record = afterHeartbeat(entry.record, this.now(), true);
      this.#announce(roomId, agentId, entry);
    }
  }

  /** Announces agents that went stale since the last sweep. */
  sweep(): void {
    for (const [roomId, agents] of this.#entries)
      for (const [agentId, entry] of agents) this.#announce(roomId, agentId, entry);
  }

  #heartbeat(message: BrokerMessage): void {
    const topic = parseTopic(message.topic);
    if (!topic.ok || topic.value.kind !== 'heartbeat') return;
    const { roomId, agentId } = topic.value;
    // Only the agent itself may speak for its presence (the ACL already ensures it on the embedded broker).
    if (message.publisher && !(message.publisher.kind === 'agent' && message.publisher.agentId === agentId)) return;
    const parsed = parseEnvelope(message.payload);
    if (!parsed.ok || parsed.value.type !== 'heartbeat') return;
    const payload = parsed.value.payload as { description?: unknown; status?: unknown };
    const agents = this.#entries.get(roomId) ?? new Map<string, Entry>();
    this.#entries.set(roomId, agents);
    const previous = agents.get(agentId);
    const record = afterHeartbeat(previous?.record, message.receivedAt, payload.status === 'offline');
    const entry: Entry = previous ?? { record, description: null, announced: 'offline' };
    entry.record = record;
    if (typeof payload.description === 'string') entry.description = payload.description.slice(0, 500);
    agents.set(agentId, entry);
    this.#announce(roomId, agentId, entry);
  }

  #announce(roomId: string, agentId: string, entry: Entry): void {
    const current = view(roomId, agentId, entry, this.now());
    if (current.status === entry.announced) return;
    entry.announced = current.status;
    void this.broker
      .publish(
        presenceTopicOf(roomId),
        new TextEncoder().encode(JSON.stringify({ kind: 'presence', agent: current })),
        0,
      )
      .catch(() => undefined);
  }
}

function view(roomId: string, agentId: string, entry: Entry, now: number): AgentPresence {
  return {
    roomId,
    agentId,
    description: entry.description,
    status: presenceStatus(entry.record, now),
    lastSeenAt: entry.record.lastSeenAt,
    intervalMs: entry.record.intervalMs,
  };
}
