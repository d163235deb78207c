// The story of an AOR room: grants, tasks, an agent's ack / progress / findings
// / risk / result, refusals and facilitator words, as sentences without raw ids. Pure: it reads
// envelopes as the timeline holds them (unknown JSON, checked here by shape, never trusted).
import { isRejectReason, type RejectReason } from '@shared/aor/reject-reasons';
import { agentName, clip, count, type StoryLine } from './story-line';

export interface RoomEvent {
  /** Unique per message (the timeline's key). */
  readonly key: string;
  readonly receivedAt: number;
  /** The AOR envelope as parsed JSON; anything that does not look like one is skipped. */
  readonly envelope: unknown;
  /** Where it was seen (`public`, `control`, `inbox`, …; the timeline's topic kind). */
  readonly topicKind: string;
}

export interface RoomStoryOptions {
  /** Display names by agent id or user id. */
  readonly names?: Readonly<Record<string, string>>;
  /** Only this task's events (a say has no task and is kept only without this filter). */
  readonly taskId?: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

// Typed by the reason union, so a reason added to shared/aor is a compile error here until it has
// words (a reject carries one of these, AOR §5.7; a grant that ran out is revoked with one too).
const REJECT_WORDS = {
  no_mic_grant: 'it had no mic for that task',
  mic_revoked: 'its mic had been taken back',
  mic_grant_expired: 'its time was up',
  message_limit_exceeded: 'it had used up its messages',
  message_type_not_allowed: 'that kind of message was not allowed',
  invalid_envelope: 'it was not a well-formed message',
  sender_mismatch: 'it tried to speak under another name',
  room_mismatch: 'it was addressed to another room',
  facilitator_rejected: 'a facilitator turned it down',
} as const satisfies Record<RejectReason, string>;

// A facilitator's revoke reason is free text (AOR §5.4); these are the ones the demo facilitator
// and the spec's example use.
const REVOKE_WORDS: Readonly<Record<string, string>> = {
  task_complete: 'the task is done',
  task_timeout: 'the task took too long',
  task_cancelled: 'the task was called off',
};

const reasonWords = (reason: string | undefined): string => {
  if (!reason) return 'no reason given';
  return isRejectReason(reason) ? REJECT_WORDS[reason] : (REVOKE_WORDS[reason] ?? reason.replace(/_/g, ' '));
};

/** The server's scripted facilitator (server/demo/facilitator.ts): an agent, not the person watching. */
const DEMO_FACILITATOR = 'demo.facilitator';

function who(from: Json | undefined, names: Readonly<Record<string, string>>): string {
  const id = str(from?.id) ?? '';
  if (names[id]) return names[id];
  if (id === DEMO_FACILITATOR) return 'The demo facilitator';
  if (from?.kind === 'user' || id.startsWith('did:')) return 'The facilitator';
  if (from?.kind === 'system') return 'Switchboard';
  return agentName(id, names);
}

/** Whether a say mentions `@agentId` (AOR §5.1 mentions; the same rule as agents/aor/mentions.ts, loosely). */
function mentions(text: string, agentId: string): boolean {
  const at = text.indexOf(`@${agentId}`);
  return at >= 0 && !/[\p{L}\p{N}_-]/u.test(text[at + agentId.length + 1] ?? '');
}

/** Sentences for a room's messages, oldest first. */
export function roomStory(events: readonly RoomEvent[], options: RoomStoryOptions = {}): StoryLine[] {
  const names = options.names ?? {};
  const lines: StoryLine[] = [];
  const seen = new Set<string>();
  // Agents of this task waiting for an answer to a clarifying question: a say mentioning one
  // answers it (AOR §6.2 "User replies with say"), and belongs to the task's story.
  const asking = new Set<string>();
  for (const event of events) {
    const env = obj(event.envelope);
    const payload = obj(env?.payload);
    const type = str(env?.type);
    if (!env || !payload || !type) continue;
    // Candidates repeat what public shows once approved; an inbox only matters for the task itself.
    if (
      event.topicKind !== 'public' &&
      event.topicKind !== 'control' &&
      !(event.topicKind === 'inbox' && type === 'task')
    )
      continue;
    const id = str(env.id) ?? event.key;
    if (seen.has(id)) continue; // the same message seen twice (history and live)
    const task = str(payload.task_id);
    const answered =
      type === 'say' && options.taskId !== undefined
        ? [...asking].find((agent) => mentions(str(payload.text) ?? '', agent))
        : undefined;
    if (options.taskId !== undefined && task !== options.taskId && answered === undefined) continue;
    const actor = who(obj(env.from), names);
    const line = (text: string, tone: StoryLine['tone'] = 'step') => {
      seen.add(id);
      lines.push({ key: id, at: event.receivedAt, actor, text, tone });
    };
    switch (type) {
      case 'mic_grant': {
        const agent = agentName(str(payload.agent_id) ?? '', names);
        const max = typeof payload.max_messages === 'number' ? payload.max_messages : undefined;
        const expires =
          typeof payload.expires_at === 'number'
            ? Math.max(0, Math.round((payload.expires_at * 1000 - event.receivedAt) / 60_000))
            : undefined;
        line(
          `${actor} gave ${agent} the mic${max ? ` for ${count(max, 'message')}` : ''}${expires ? `, ${count(expires, 'minute')}` : ''}.`,
        );
        break;
      }
      case 'mic_revoke':
        line(
          `${actor} took the mic back from ${agentName(str(payload.agent_id) ?? '', names)}: ${reasonWords(str(payload.reason))}.`,
        );
        break;
      case 'task':
        line(`${actor} asked: “${clip(str(payload.goal) ?? '')}”`);
        break;
      case 'say':
        if (answered !== undefined) {
          asking.delete(answered);
          // Quoted as the answerer's words, under its name: the demo facilitator is an agent.
          const words = (str(payload.text) ?? '').split(`@${answered}`).join(' ');
          line(`${actor} answered ${agentName(answered, names)}: “${clip(words)}”`);
        } else if (options.taskId === undefined) line(`${actor} said: “${clip(str(payload.text) ?? '')}”`);
        break;
      case 'reject': {
        line(`Switchboard held back a message: ${reasonWords(str(payload.reason))}.`, 'problem');
        break;
      }
      case 'result':
        if (payload.message_type === 'clarifying_question') asking.add(str(obj(env.from)?.id) ?? '');
        resultLine(payload, actor, line);
        break;
      default:
        break;
    }
  }
  return lines;
}

function resultLine(payload: Json, actor: string, line: (text: string, tone?: StoryLine['tone']) => void): void {
  const content = obj(payload.content) ?? {};
  switch (str(payload.message_type)) {
    case 'ack':
      line(`${actor} took the task.`);
      break;
    case 'progress':
      line(`${actor} is working: ${clip(str(content.text) ?? '')}`);
      break;
    case 'finding': {
      const bullets = Array.isArray(content.bullets)
        ? content.bullets.filter((b): b is string => typeof b === 'string')
        : [];
      line(`${actor} found ${count(bullets.length, 'point')}${bullets[0] ? `: ${clip(bullets[0], 100)}` : '.'}`);
      break;
    }
    case 'risk': {
      const severity = str(content.severity);
      line(`${actor} flagged a ${severity ? `${severity} ` : ''}risk: ${clip(str(content.text) ?? '')}`, 'problem');
      break;
    }
    case 'artifact_link':
      line(`${actor} shared ${str(content.label) ? `“${clip(str(content.label)!, 60)}”` : 'a link'}.`);
      break;
    case 'clarifying_question':
      line(`${actor} asked: “${clip(str(content.question) ?? '')}”`);
      break;
    case 'result':
      line(`${actor} finished: ${clip(str(content.text) ?? '', 200)}`, 'milestone');
      break;
    case undefined:
    default:
      break;
  }
}
