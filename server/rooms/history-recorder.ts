// Every message on every room topic is stored with its receive time and a strictly ordered
// cursor, BEFORE the broker routes it: nothing anyone has seen can be missing from history
// after a crash. Messages to rooms nobody created are refused.
import { checkPayloadSize } from '@shared/aor/payload-size';
import { parseTopic } from '@shared/aor/topics';
import type { BrokerMessage } from '../mqtt/broker-port';
import { RefusedPublish } from '../mqtt/refused-publish';
import type { PublishQuotas } from '../mqtt/publish-quotas';
import type { NewRoomMessage, StoredRoomMessage, Store } from '../store/store';
import type { RoomRegistry } from './room-registry';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('rooms');

interface EnvelopeFields {
  readonly messageId: string | null;
  readonly type: string | null;
  readonly fromId: string | null;
}

const utf8 = new TextDecoder();

/**
 * Lenient: history keeps malformed messages too, with whatever fields can be read. A string
 * holding U+0000 is not read (PostgreSQL text cannot hold it; decisions-server.md §17): its
 * bytes stay in the payload.
 */
function envelopeFields(payload: Uint8Array): EnvelopeFields {
  try {
    return columnsOf(JSON.parse(utf8.decode(payload)));
  } catch {
    return { messageId: null, type: null, fromId: null };
  }
}

/** A column's text: a string without NUL, at most 256 characters; anything else is null. */
function text(v: unknown): string | null {
  return typeof v === 'string' && !v.includes('\u0000') ? v.slice(0, 256) : null;
}

function columnsOf(envelope: unknown): EnvelopeFields {
  const value = envelope as { id?: unknown; type?: unknown; from?: { id?: unknown } } | null;
  return { messageId: text(value?.id), type: text(value?.type), fromId: text(value?.from?.id) };
}

/** The §3 topic a message is on; RefusedPublish for any other. */
function roomTopicOf(message: BrokerMessage) {
  const topic = parseTopic(message.topic);
  if (!topic.ok) throw new RefusedPublish(`not a room topic: ${message.topic}`);
  return topic.value;
}

export class UnknownRoomError extends RefusedPublish {
  override readonly name = 'UnknownRoomError';
}

export class HistoryRecorder {
  readonly #recorded = new Set<(row: StoredRoomMessage) => void>();

  constructor(
    private readonly store: Store,
    private readonly rooms: RoomRegistry,
  ) {}

  /** Hears each message `record` stored (the gateway's candidates and outcomes are its onDecided). */
  onRecorded(listener: (row: StoredRoomMessage) => void): () => void {
    this.#recorded.add(listener);
    return () => this.#recorded.delete(listener);
  }

  /**
   * The row a room message becomes; throws RefusedPublish for topics outside the §3 map.
   * `envelope`, when the caller has parsed the payload already (the gateway's strict read), gives
   * the row its columns without parsing the bytes again.
   */
  describe(message: BrokerMessage, envelope?: unknown): NewRoomMessage {
    const topic = roomTopicOf(message);
    return {
      roomId: topic.roomId,
      topic: message.topic,
      topicKind: topic.kind,
      topicAgentId:
        'agentId' in topic
          ? topic.agentId
          : topic.kind === 'public_candidates' && message.publisher?.kind === 'agent'
            ? message.publisher.agentId
            : null,
      ...(envelope === undefined ? envelopeFields(message.payload) : columnsOf(envelope)),
      payload: message.payload,
      receivedAt: message.receivedAt,
    };
  }

  /** The room a message's topic names; throws RefusedPublish for topics outside the §3 map. */
  roomOf(message: BrokerMessage): string {
    return roomTopicOf(message).roomId;
  }

  roomExists(roomId: string): Promise<boolean> {
    return this.rooms.exists(roomId);
  }

  /**
   * Stores a room message; throws for non-room topics, unknown rooms and payloads over their
   * topic's size cap (decision AOR 20: the embedded broker refuses those first, an external
   * broker's arrive here), and the publish is refused.
   */
  async record(message: BrokerMessage): Promise<StoredRoomMessage> {
    const row = this.describe(message);
    const size = checkPayloadSize(message.topic, message.payload.byteLength);
    if (!size.ok) throw new RefusedPublish(size.error.code);
    if (!(await this.rooms.exists(row.roomId))) throw new UnknownRoomError('unknown_room');
    const stored = await this.store.rooms.appendMessage(row);
    for (const listener of [...this.#recorded]) {
      try {
        listener(stored);
      } catch (error) {
        log.error({ err: error }, 'a history listener failed');
      }
    }
    return stored;
  }
}

/**
 * How an external broker's messages reach history (server/mqtt/external-broker.ts): a room message
 * is stored on arrival, before any handler sees it, and a candidate is stored together with the
 * gateway's decision (`admitCandidate`, decisions-server.md §30), so the broker's PUBACK follows
 * the decision as the embedded broker's does. With a share group, the copy of an agent's message
 * this instance only watches is admitted when its room exists. A message to a room nobody created
 * is refused either way, as the embedded broker refuses it.
 */
export function recordOnArrival(
  history: HistoryRecorder,
  admitCandidate: (message: BrokerMessage) => Promise<void>,
  quotas?: PublishQuotas,
) {
  return {
    beforeDispatch: async (message: BrokerMessage) => {
      if (!message.topic.startsWith('rooms/')) return;
      if (quotas) withinQuota(quotas, message);
      if (isCandidateTopic(message.topic)) return admitCandidate(message);
      await history.record(message);
    },
    admit: async (message: BrokerMessage) => {
      const topic = parseTopic(message.topic);
      if (!topic.ok || !(await history.roomExists(topic.value.roomId))) throw new UnknownRoomError('unknown_room');
    },
  };
}

/**
 * An external broker's agents publish to it directly, so their quota is taken where their messages
 * reach the server (decisions-server.md §45): a candidate by the agent its topic's suffix
 * authenticated, a heartbeat or work by the agent its topic names (the broker's ACL lets only that
 * agent publish there). Past the quota the message is neither recorded nor decided.
 */
function withinQuota(quotas: PublishQuotas, message: BrokerMessage): void {
  const topic = parseTopic(message.topic);
  const agentId =
    message.publisher?.kind === 'agent'
      ? message.publisher.agentId
      : topic.ok && 'agentId' in topic.value && topic.value.kind !== 'inbox'
        ? topic.value.agentId
        : undefined;
  if (agentId === undefined) return;
  const verdict = quotas.take(agentId, message.payload.byteLength);
  if (!verdict.ok) throw new RefusedPublish(verdict.reason);
}

/** Whether a topic is a room's `public_candidates` (spec §3), the gateway's to decide. */
export function isCandidateTopic(topic: string): boolean {
  const parsed = parseTopic(topic);
  return parsed.ok && parsed.value.kind === 'public_candidates';
}
