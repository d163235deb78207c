// Agents' clarifying questions (AOR §6.2) not yet answered (shared/inbox/rules.ts, sayAnswers):
// a question is on the room's public topic once the gateway approved it; a facilitator's `say`
// that answers it settles it. Both pass through the broker, so every instance hears them; at start
// the newest history of each room is replayed in order.
import { parseTopic } from '@shared/aor/topics';
import { quoteOf, sayAnswers } from '@shared/inbox/rules';
import { questionTitle } from '@shared/inbox/titles';
import type { BrokerPort } from '../mqtt/broker-port';
import { parseJson, roomName, type InboxSource, type SourceContext } from './source-context';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

const PREFIX = 'question:';
/** Messages replayed per room at start, newest first: questions older than that are let go. */
const REBUILD_PAGE = 2_000;

interface Seen {
  readonly topic: string;
  readonly payload: Uint8Array;
  readonly receivedAt: number;
}

interface RoomMessage {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly from?: { readonly kind?: unknown; readonly id?: unknown };
  readonly payload?: {
    readonly message_type?: unknown;
    readonly content?: { readonly question?: unknown };
    readonly text?: unknown;
  };
}

export function startQuestionSource(ctx: SourceContext, broker: BrokerPort): InboxSource {
  const { board, store } = ctx;

  /** Applies one room message; `room` is the room's display name. */
  const apply = (message: Seen, room: string) => {
    const topic = parseTopic(message.topic);
    if (!topic.ok) return;
    const { roomId } = topic.value;
    const envelope = parseJson(message.payload) as RoomMessage | undefined;
    if (!envelope || typeof envelope.id !== 'string') return;
    const { payload } = envelope;
    if (
      topic.value.kind === 'public' &&
      envelope.type === 'result' &&
      envelope.from?.kind === 'agent' &&
      typeof envelope.from.id === 'string' &&
      payload?.message_type === 'clarifying_question' &&
      typeof payload.content?.question === 'string'
    ) {
      const agentId = envelope.from.id;
      board.put({
        id: `${PREFIX}${roomId}:${envelope.id}`,
        kind: 'question',
        urgency: 'now',
        title: questionTitle(agentId, room),
        quote: quoteOf(payload.content.question),
        since: message.receivedAt,
        dueAt: null,
        href: `/rooms/${encodeURIComponent(roomId)}`,
        ref: { kind: 'question', roomId, messageId: envelope.id, agentId },
        claim: null,
      });
      return;
    }
    if (envelope.type !== 'say' || typeof payload?.text !== 'string' || envelope.from?.kind === 'agent') return;
    if (topic.value.kind !== 'public' && topic.value.kind !== 'inbox') return;
    const say = { text: payload.text, toAgent: topic.value.kind === 'inbox' ? topic.value.agentId : null };
    const by = typeof envelope.from?.id === 'string' ? envelope.from.id : null;
    for (const item of board.current()) {
      if (item.ref.kind !== 'question' || item.ref.roomId !== roomId || item.since > message.receivedAt) continue;
      if (sayAnswers(say, item.ref.agentId)) board.remove(item.id, by);
    }
  };

  // In arrival order: a question and the say that answers it may come back to back.
  let chain = Promise.resolve();
  const live = (message: Seen) => {
    const topic = parseTopic(message.topic);
    if (!topic.ok) return;
    chain = chain
      .then(() => roomName(store, topic.value.roomId))
      .then((room) => apply(message, room))
      .catch((error: unknown) => log.error({ err: error }, 'a room message could not be read'));
  };
  const offs = [broker.onMessage('rooms/+/public', live), broker.onMessage('rooms/+/agents/+/inbox', live)];

  return {
    async rebuild() {
      for (const room of await store.rooms.listRooms()) {
        const page = await store.rooms.listMessages({
          roomId: room.id,
          topicKinds: ['public', 'inbox'],
          types: ['result', 'say'],
          limit: REBUILD_PAGE,
        });
        for (const m of page.messages) apply(m, room.name || room.id);
      }
    },
    stop() {
      for (const off of offs) off();
    },
  };
}
