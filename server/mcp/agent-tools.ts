// The tools an agent's MCP session offers (docs/decisions-mcp.md §2): each one AOR action, worded
// for a model to read, with inputs as zod schemas (the SDK publishes them as JSON Schema). A
// refusal is a tool error (`isError`) carrying a stable code and a sentence; nothing a caller
// sends ends the session.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AorId } from '@shared/aor/ids';
import { MESSAGE_TYPES, MessageType } from '@shared/aor/payloads';
import { rejectReasonInWords } from '@shared/aor/reject-words';
import { CodedError, isCodedError } from '@shared/errors';
import type { AgentMcpSession, TaskNotice } from './agent-mcp-session';

export interface ToolContext {
  readonly session: AgentMcpSession;
  /** Before every call: the credential still holds and the agent is within its call budget; throws otherwise. */
  readonly admit: () => Promise<void>;
  readonly now: () => number;
  readonly maxWaitSeconds: number;
}

const HISTORY_PAGE_MAX = 100;

const answer = (text: string, fields: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: fields,
});

const refusal = (code: string, message: string, fields: Record<string, unknown> = {}): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${message} (code: ${code})` }],
  structuredContent: { code, message, ...fields },
});

/** Runs a tool body; a coded error (or any other) becomes a tool error, never a broken session. */
async function guarded(ctx: ToolContext, body: (signal: AbortSignal) => Promise<CallToolResult>, signal: AbortSignal) {
  try {
    await ctx.admit();
    return await body(signal);
  } catch (error) {
    if (isCodedError(error)) return refusal(error.code, error.message, error.details ? { details: error.details } : {});
    return refusal('INTERNAL_ERROR', 'The tool failed unexpectedly; try again.');
  }
}

/** Unix seconds as an ISO time and how far from now, for a model that has no clock. */
function when(seconds: number, nowMs: number): string {
  const iso = new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const minutes = Math.round((seconds * 1000 - nowMs) / 60_000);
  if (minutes === 0) return `${iso} (now)`;
  return minutes > 0 ? `${iso} (in ${minutes} min)` : `${iso} (${-minutes} min ago)`;
}

export function taskInWords(notice: TaskNotice, nowMs: number): string {
  const lines = [`Task ${notice.taskId} in room ${notice.roomId}.`];
  lines.push(notice.goal ? `Goal: ${notice.goal}` : 'Goal: not received (only the mic grant was heard).');
  if (notice.format) lines.push(`Format asked for: ${notice.format}`);
  if (notice.deadline !== null) lines.push(`Deadline: ${when(notice.deadline, nowMs)}`);
  const g = notice.grant;
  if (!g) lines.push('You have no mic for it yet: posts would be rejected (no_mic_grant).');
  else {
    const left = g.spent === null ? `${g.maxMessages}` : `${Math.max(0, g.maxMessages - g.spent)} of ${g.maxMessages}`;
    lines.push(
      `You may post these message types: ${g.allowedMessageTypes.join(', ')}; ${left} messages left; until ${when(g.expiresAt, nowMs)}.`,
    );
    if (g.ended) lines.push(`This mic has ended: ${g.ended}.`);
  }
  return lines.join('\n');
}

const Room = AorId.describe('The room id, as my_rooms lists it (for example "demo").');
const TaskId = AorId.describe('The task_id of the task, as wait_for_task gave it.');
const WaitSeconds = (max: number) =>
  z
    .int()
    .min(0)
    .max(max)
    .optional()
    .describe(`How long to wait, in seconds (0 to ${max}; default 30). Call again when nothing came.`);

const CONTENT_SHAPES =
  'ack {text}, clarifying_question {question}, progress {text}, finding {bullets: [text, …]}, ' +
  'risk {text, severity?: low|medium|high|critical, mitigation?}, result {text}, artifact_link {url (http/https), label?}';

export function registerAgentTools(server: McpServer, ctx: ToolContext): void {
  const { session } = ctx;

  server.registerTool(
    'my_rooms',
    {
      title: 'My rooms',
      description:
        'Lists the rooms that exist on this Switchboard, which of them this session has joined, and the live mic grants ' +
        'you hold in each. Join a room (join_room) to receive its tasks and to post there.',
      inputSchema: {},
    },
    (_args, extra) =>
      guarded(
        ctx,
        async () => {
          const rooms = await ctx.session.rooms();
          const lines = rooms.map(
            (r) =>
              `- ${r.roomId} "${r.name}"${r.joined ? ' (joined)' : ''}${
                r.grants.length ? `; your live grants: ${r.grants.map((g) => g.taskId).join(', ')}` : ''
              }`,
          );
          return answer(rooms.length ? `Rooms:\n${lines.join('\n')}` : 'There are no rooms yet.', { rooms });
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'join_room',
    {
      title: 'Join a room',
      description:
        'Joins a room as this agent: you are shown present there while this session lives, and you hear the tasks, mic ' +
        'grants and answers addressed to you in it. Needed before wait_for_task, post, ask or wait_for_answer.',
      inputSchema: { room: Room },
    },
    ({ room }, extra) =>
      guarded(
        ctx,
        async () => {
          const { joined } = await session.join(room);
          return answer(joined ? `Joined ${room}. You are present there now.` : `Already in ${room}.`, {
            room,
            joined: true,
          });
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'leave_room',
    {
      title: 'Leave a room',
      description: 'Leaves a room: you are shown offline there and hear nothing more from it.',
      inputSchema: { room: Room },
    },
    ({ room }, extra) =>
      guarded(
        ctx,
        async () => {
          const left = await session.leave(room);
          return answer(left ? `Left ${room}.` : `You were not in ${room}.`, { room, left });
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'room_history',
    {
      title: 'Room history',
      description:
        'Recent public messages of a room (what people said and what agents were approved to say), newest last. Page ' +
        'back with `before` set to the `nextBefore` of the previous answer.',
      inputSchema: {
        room: Room,
        limit: z
          .int()
          .min(1)
          .max(HISTORY_PAGE_MAX)
          .optional()
          .describe(`Messages per page (1 to ${HISTORY_PAGE_MAX}; default 20).`),
        before: z
          .int()
          .min(1)
          .optional()
          .describe('Only messages older than this cursor (nextBefore of a previous page).'),
      },
    },
    ({ room, limit, before }, extra) =>
      guarded(
        ctx,
        async () => {
          const page = await session.history(room, limit ?? 20, before);
          const lines = page.messages.map(
            (m) => `[${m.cursor}] ${m.from}${m.messageType ? ` (${m.messageType})` : ''}: ${m.text}`,
          );
          return answer(
            page.messages.length
              ? `${lines.join('\n')}${page.nextBefore !== null ? `\n(older messages: before=${page.nextBefore})` : ''}`
              : 'No public messages.',
            { room, ...page },
          );
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'wait_for_task',
    {
      title: 'Wait for a task',
      description:
        'Waits until a facilitator gives you a task or a mic grant in a room you joined, and describes it: the goal, the ' +
        'message types you may post, how many messages, and until when. Answers "no task yet" when the wait ends ' +
        'without one; call it again. Each task is handed out once.',
      inputSchema: { wait_seconds: WaitSeconds(ctx.maxWaitSeconds) },
    },
    ({ wait_seconds }, extra) =>
      guarded(
        ctx,
        async (signal) => {
          const notice = await session.waitForTask((wait_seconds ?? 30) * 1000, signal);
          if (!notice) return answer('No task yet. Call wait_for_task again to keep waiting.', { task: null });
          return answer(taskInWords(notice, ctx.now()), { task: notice });
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'post',
    {
      title: 'Post to the room',
      description:
        'Asks to say something in a room for a task. It goes to the room’s gateway, which approves it only if your mic ' +
        'grant for that task is live, allows this message type and has messages left. Answers "approved" (it is now ' +
        `in the room) or "rejected" with the reason and its code. Start with an ack, end with a result. Content by message type: ${CONTENT_SHAPES}.`,
      inputSchema: {
        room: Room,
        task_id: TaskId,
        message_type: MessageType.describe(`One of: ${MESSAGE_TYPES.join(', ')}.`),
        content: z
          .record(z.string(), z.unknown())
          .describe(`The message's content object, by message type: ${CONTENT_SHAPES}.`),
      },
    },
    ({ room, task_id, message_type, content }, extra) =>
      guarded(
        ctx,
        async (signal) => {
          const outcome = await session.post(room, task_id, message_type, content, signal);
          return outcomeAnswer(outcome, { room, task_id, message_type });
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask a clarifying question',
      description:
        'Posts a clarifying_question to the room for a task (your grant must allow clarifying_question). People answer ' +
        'with a message that mentions you; wait for it with wait_for_answer.',
      inputSchema: { room: Room, task_id: TaskId, question: z.string().min(1).max(4000).describe('The question.') },
    },
    ({ room, task_id, question }, extra) =>
      guarded(
        ctx,
        async (signal) => {
          const outcome = await session.post(room, task_id, 'clarifying_question', { question }, signal);
          return outcomeAnswer(outcome, { room, task_id, message_type: 'clarifying_question' });
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'wait_for_answer',
    {
      title: 'Wait for an answer',
      description:
        'Waits for the next message in the room that mentions you (how people answer a clarifying question) and gives ' +
        'its text. Answers "no answer yet" when the wait ends without one; call it again.',
      inputSchema: { room: Room, wait_seconds: WaitSeconds(ctx.maxWaitSeconds) },
    },
    ({ room, wait_seconds }, extra) =>
      guarded(
        ctx,
        async (signal) => {
          const text = await session.waitForAnswer(room, (wait_seconds ?? 30) * 1000, signal);
          return text === null
            ? answer('No answer yet. Call wait_for_answer again to keep waiting.', { room, answer: null })
            : answer(`Answer: ${text}`, { room, answer: text });
        },
        extra.signal,
      ),
  );
}

function outcomeAnswer(
  outcome: Awaited<ReturnType<AgentMcpSession['post']>>,
  fields: Record<string, unknown>,
): CallToolResult {
  switch (outcome.status) {
    case 'approved':
      return answer(`Approved: your ${String(fields.message_type)} is now in the room.`, {
        ...fields,
        status: 'approved',
        messageId: outcome.messageId,
      });
    case 'rejected':
      return refusal(outcome.reason, `Rejected: ${rejectReasonInWords(outcome.reason)}.`, {
        ...fields,
        status: 'rejected',
        reason: outcome.reason,
        messageId: outcome.messageId,
        ...(outcome.detail ? { detail: outcome.detail } : {}),
      });
    case 'unknown':
      return answer(
        'Not decided yet: the room may be under review and a facilitator has not decided. Do not send it again; ' +
          'room_history shows it once approved.',
        { ...fields, status: 'pending', messageId: outcome.messageId },
      );
    default:
      throw new CodedError('INTERNAL_ERROR', 'unknown outcome');
  }
}
